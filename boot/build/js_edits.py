"""The runtime's JavaScript as the site ships it: Pyodide's and PyScript's files with the edits
that cut the longest tasks of a boot's main thread (scripts/build.py; docs/boot.md, "In which
order"). None changes what the game gets from the runtime, only when V8 compiles it, in how
many tasks it starts, what its link does before a library asks, and what PyScript's prelude
does before the page's script:

- `EAGER` (pyodide.asm.mjs): the module's one function, which holds the whole runtime (1.2 MB
  of source), wrapped in parentheses. V8 then compiles it with the module, not at its first
  call: ~165 ms of parsing in the task that sets the runtime up, on a phone's 4x-throttled CPU;
- `LAZY_SLEEP_MEMORY` (pyodide.asm.mjs): the set-up of Pyodide's JavaScript API
  (`pyodide_js_init`) made a shared `WebAssembly.Memory` for `Atomics.wait` (its `syncSleep`,
  which only a worker's blocking read of standard input calls). Made on the page, with the
  boot's large buffers allocated, it took ~135 ms of the phone's ~190 ms set-up task; it is
  made at the first sleep instead;
- `LINK_IN_THREE_TASKS` (pyodide.asm.mjs): the runtime's link of the instantiated wasm
  (emscripten's `receiveInstance`: the exports read into its variables, then each into its
  table of globals, then every symbol the wasm imports resolved, ~250 ms on the phone
  profile) in three tasks. The runtime awaits the link's result (`createWasm` is async), so
  nothing of it runs before the link is done;
- `GOT_AS_ASKED` (pyodide.asm.mjs): the link put every one of the wasm's ~8,560 exports into
  the table of globals that dynamic libraries link against (emscripten's `updateGOT`), each
  function given a table slot of its own: ~20 ms under Node, ~4x that on the phone profile.
  Only the symbols the wasm itself asks for (its `GOT.func` and `GOT.mem` imports, ~280) are
  needed at start; the edit fills those, and any other is resolved when a library asks for it
  (emscripten's `reportUndefinedSymbols` looks it up among the exports then), so a library
  still links as before. The game loads none. The table's slots differ from the original's, but
  every runtime that makes or restores an image of this build runs the same code;
- `JS_WRAPPERS_AT_ONCE` (pyodide.asm.mjs): the link's last step (`reportUndefinedSymbols`)
  gives each JavaScript function whose address the wasm takes (~260) a table slot through a
  wasm wrapper, one module compiled and instantiated for each: ~15 ms of a desktop's main
  thread. The edit has `addFunction` leave the wrapping to its caller when given a list
  (`later`): the same slots, in the same order, whose functions are then wrapped with one
  module for every `WRAPPERS_A_MODULE` of them (~3 ms);
- `WRITTEN_INTO_MEMORY` (pyodide.asm.mjs): a snapshot's restore copies the whole image (31 MB)
  into the runtime's memory. Given an image with a `writeImage` method (boot/snapshot.mjs
  `restorable`: a later visit's, whose stored pages are not yet unpacked), it lets that write
  the pages into memory itself, with the heap's break, up to which the runtime has written:
  one pass over the memory, and no 31 MB array unpacked first. Any other image (a first
  visit's, from a worker) is copied as before;
- `RESTORE_IN_TWO_TASKS` (pyodide.mjs): a snapshot's restore (`restoreSnapshot`: the image
  written into memory) and Python's bootstrap after it (`finalizeBootstrap`) in two tasks;
- `BOOTSTRAP_IN_TWO_TASKS` (pyodide.asm.mjs): that bootstrap cut after its first import
  (`_pyodide_core`), before it looks up the modules and namespaces the API keeps (~100 ms
  each half on the phone profile). `loadPyodide()` awaits the bootstrap (the edit above);
- `NO_SOURCE_FILES` (PyScript's chunk that holds its Python package): PyScript's prelude, the
  Python it runs before the page's script, writes the sources of its package into the runtime's
  file system at every boot, ~100 ms of the phone's main thread, and carries them (60 KB that
  Python compiles each time). The page never imports those files: app.zip, first on the search
  path, holds the same package compiled (boot/build/compile_app.mjs reads it from this chunk,
  whose object literal of sources the edit leaves in place). The folder is still made;
- `NO_PACKAGE_IMPORT` (the same chunk): the prelude then imports PyScript's package, ~65-100 ms
  more of that task, which the game never uses (its Python reaches the page through `js` and
  `pyodide.ffi`); it is imported only if something uses it (app-more.zip's modules of it are
  mounted without importing it: py/webui/browser/boot/more.py).

A task later is a posted message, as boot/pyodide-early.mjs's own steps (a hidden tab's timers
wait a second), whose ports are closed so that Node may exit. Each edit must match its file
exactly once: an upstream change stops the build with a message rather than ship something
else (`JsEditError`).
"""

from __future__ import annotations

from typing import NamedTuple

WRAPPERS_A_MODULE = 100
"""JavaScript functions wrapped by one wasm module (JS_WRAPPERS_AT_ONCE): V8 refuses to compile
a module over 4 KB at once on a page's main thread; 100 wrappers take ~1.5 KB."""
NEXT_TASK = ("new Promise((resolve)=>{const channel=new MessageChannel();"
             "channel.port1.onmessage=()=>{channel.port1.close();resolve()};"
             "channel.port2.postMessage(null)})")
"""A promise resolved in the next task."""


class Edit(NamedTuple):
    """One change to a file's text: `old`, which must occur exactly once, becomes `new`."""

    name: str
    old: str
    new: str


EAGER = (
    Edit("EAGER", "async function _createPyodideModule(moduleArg={}){",
         "var _createPyodideModule=(async function(moduleArg={}){"),
    Edit("EAGER", ";return moduleRtn}export default _createPyodideModule;",
         ";return moduleRtn});export default _createPyodideModule;"),
)
LAZY_SLEEP_MEMORY = Edit(
    "LAZY_SLEEP_MEMORY",
    "var io=new Int32Array(new WebAssembly.Memory({shared:!0,initial:1,maximum:1}).buffer);"
    "function so(t){try{",
    "var io;function so(t){"
    "io??=new Int32Array(new WebAssembly.Memory({shared:!0,initial:1,maximum:1}).buffer);try{")
LINK_IN_THREE_TASKS = Edit(
    "LINK_IN_THREE_TASKS",
    "updateGOT(origExports);LDSO.init();loadDylibs();updateMemoryViews();return wasmExports}",
    f"return {NEXT_TASK}.then(()=>{{updateGOT(origExports);return {NEXT_TASK}}})"
    ".then(()=>{LDSO.init();loadDylibs();updateMemoryViews();return wasmExports})}")
GOT_AS_ASKED = Edit(
    "GOT_AS_ASKED",
    "var updateGOT=(exports,replace)=>{for(var symName in exports){if(isInternalSym(symName)){"
    "continue}",
    "var updateGOT=(exports,replace)=>{for(var symName in exports){"
    "if(isInternalSym(symName)||!replace&&!GOT[symName]){continue}")
JS_WRAPPERS_AT_ONCE = (
    Edit("JS_WRAPPERS_AT_ONCE",
         "var addFunction=(func,sig)=>{",
         "var addFunction=(func,sig,later)=>{"),
    Edit("JS_WRAPPERS_AT_ONCE",
         "var wrapped=convertJsFunctionToWasm(func,sig);setWasmTableEntry(ret,wrapped)}",
         "if(later){later.push([ret,func,sig])}else{var wrapped=convertJsFunctionToWasm(func,sig);"
         "setWasmTableEntry(ret,wrapped)}}"),
    Edit("JS_WRAPPERS_AT_ONCE",
         "if(typeof value==\"function\"){entry.value=addFunction(value,value.sig)}",
         "if(typeof value==\"function\"){entry.value=addFunction(value,value.sig,later)}"),
    Edit("JS_WRAPPERS_AT_ONCE",
         "var reportUndefinedSymbols=()=>{for(var[symName,entry]of Object.entries(GOT)){",
         "var convertJsFunctionsToWasm=later=>{var leb=n=>{var out=[];do{var b=n&127;n>>>=7;"
         "if(n)b|=128;out.push(b)}while(n);return out};"
         "var vec=items=>[...leb(items.length),...items.flat()];"
         "var section=(id,items)=>{var body=vec(items);return[id,...leb(body.length),...body]};"
         "var name=i=>{var s=String(i);return[s.length,...Array.from(s,c=>c.charCodeAt(0))]};"
         f"for(var start=0;start<later.length;start+={WRAPPERS_A_MODULE}){{"
         f"var part=later.slice(start,start+{WRAPPERS_A_MODULE}),types=[],typeOf=new Map,"
         "env={};var imports=part.map(([slot,func,sig],i)=>{if(!typeOf.has(sig)){"
         "typeOf.set(sig,types.length);types.push([96,...generateTypePack(sig.slice(1)),"
         "...generateTypePack(sig[0]===\"v\"?\"\":sig[0])])}env[i]=func;"
         "return[1,101,...name(i),0,...leb(typeOf.get(sig))]});"
         "var exported=part.map((entry,i)=>[...name(i),0,...leb(i)]);"
         "var bytes=Uint8Array.of(0,97,115,109,1,0,0,0,...section(1,types),"
         "...section(2,imports),...section(7,exported));"
         "var instance=new WebAssembly.Instance(new WebAssembly.Module(bytes),{e:env});"
         "part.forEach(([slot],i)=>setWasmTableEntry(slot,instance.exports[i]))}};"
         "var reportUndefinedSymbols=()=>{var later=[];"
         "for(var[symName,entry]of Object.entries(GOT)){"),
    Edit("JS_WRAPPERS_AT_ONCE",
         "else{throw new Error(`bad export type for '${symName}': ${typeof value} "
         "(${value})`)}}}};",
         "else{throw new Error(`bad export type for '${symName}': ${typeof value} "
         "(${value})`)}}}convertJsFunctionsToWasm(later)};"),
)
WRITTEN_INTO_MEMORY = Edit(
    "WRITTEN_INTO_MEMORY",
    "let i=t.subarray(Ze,Ze+n);t=t.subarray(r);let s=(new TextDecoder).decode(i),l=JSON.parse(s);"
    "return Module.HEAP8.set(t),l}",
    "let i=t.subarray(Ze,Ze+n),w=t.writeImage;t=t.subarray(r);"
    "let s=(new TextDecoder).decode(i),l=JSON.parse(s);"
    "return w?w(Module.HEAP8,r,Module.HEAPU32[Module._emscripten_get_sbrk_ptr()>>>2]):"
    "Module.HEAP8.set(t),l}")
RESTORE_IN_TWO_TASKS = (
    Edit("RESTORE_IN_TWO_TASKS",
         "function Ae(e,t,n){let i=e.API,s;return t&&(s=i.restoreSnapshot(t)),"
         "i.finalizeBootstrap(s,n._snapshotDeserializer)}",
         "async function Ae(e,t,n){let i=e.API,s;return t&&(s=i.restoreSnapshot(t),"
         f"await {NEXT_TASK}),i.finalizeBootstrap(s,n._snapshotDeserializer)}}"),
    Edit("RESTORE_IN_TWO_TASKS", "let a=Ae(r,s,t);return await Oe(a,t)",
         "let a=await Ae(r,s,t);return await Oe(a,t)"),
)
NO_SOURCE_FILES = Edit(
    "NO_SOURCE_FILES",
    'if(go.path(`${e}/${n}`),go.push(`_path = _Path("${e}/${n}")`),"string"==typeof r){'
    'const e=JSON.stringify(r);go.push(`_path.write_text(${e},encoding="utf-8")`)}'
    'else go.push(`if not _os.path.exists("${e}/${n}"):`)',
    'if(go.path(`${e}/${n}`),"string"==typeof r);'
    'else go.push(`_path = _Path("${e}/${n}")`),go.push(`if not _os.path.exists("${e}/${n}"):`)')
NO_PACKAGE_IMPORT = Edit(
    "NO_PACKAGE_IMPORT",
    'ho.push("import pyscript as _pyscript"),'
    'ho.push(...["_Path","_path","_os","_pyscript"].map(e=>`del ${e}`))',
    'ho.push(...["_Path","_path","_os"].map(e=>`del ${e}`))')
BOOTSTRAP_IN_TWO_TASKS = (
    Edit("BOOTSTRAP_IN_TWO_TASKS", "API.finalizeBootstrap=function(t,e){",
         "API.finalizeBootstrap=async function(t,e){"),
    Edit("BOOTSTRAP_IN_TWO_TASKS",
         'r&&API.fatal_loading_error(`Failed to import _pyodide_core\\n`,n),',
         f'r&&API.fatal_loading_error(`Failed to import _pyodide_core\\n`,n),await {NEXT_TASK},'),
)
PYODIDE = {"pyodide.asm.mjs": (*EAGER, LAZY_SLEEP_MEMORY, LINK_IN_THREE_TASKS, GOT_AS_ASKED,
                               *JS_WRAPPERS_AT_ONCE, WRITTEN_INTO_MEMORY,
                               *BOOTSTRAP_IN_TWO_TASKS),
           "pyodide.mjs": RESTORE_IN_TWO_TASKS}
"""The edits of Pyodide's files, by file name."""
PYSCRIPT = (NO_SOURCE_FILES, NO_PACKAGE_IMPORT)
"""The edits of PyScript's chunks: each is made in the one chunk that holds it."""


class JsEditError(RuntimeError):
    """A file is not what its edits expect."""


def edited(text: str, edits: tuple[Edit, ...], file: str) -> str:
    """`text` with `edits` made; JsEditError if one does not match exactly once."""
    for edit in edits:
        if text.count(edit.old) != 1:
            raise JsEditError(f"{file} no longer matches js_edits.{edit.name} "
                              f"({edit.old[:48]}...): check the edit against the new release")
        text = text.replace(edit.old, edit.new)
    return text


def edited_chunks(chunks: dict[str, str], edits: tuple[Edit, ...]) -> dict[str, str]:
    """{name: text} of the chunks that `edits` change, each edit made in the one chunk that
    holds it; JsEditError if an edit is in none or in more than one."""
    out: dict[str, str] = {}
    for edit in edits:
        holders = [name for name, text in chunks.items() if edit.old in text]
        if len(holders) != 1:
            raise JsEditError(f"js_edits.{edit.name} is in {len(holders)} of PyScript's "
                              "chunks, not one: check the edit against the new release")
        name = holders[0]
        out[name] = edited(out.get(name, chunks[name]), (edit,), name)
    return out
