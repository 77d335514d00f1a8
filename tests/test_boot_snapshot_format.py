"""What the page and the service worker read from storage, run under Node: the boot snapshot's
format (boot/snapshot.mjs `encode`, `check` and `restorable`, and boot/sw-kept.js
`snapshotContainer`, which must agree with them), the service worker's zip listing
(`zipEntries`), on zips written by Python's zipfile, and the wasm's validators
(boot/wasm-cache.mjs and sw-kept.js must read the same)."""

from __future__ import annotations

import io
import json
import random
import struct
import subprocess
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Runs the cases given as JSON on stdin; prints one JSON answer per case.
RUNNER = r"""
import { encode, check, restorable } from "%(module)s";
import { validators as pageValidators } from "%(wasm)s";
import { readFileSync } from "node:fs";
import vm from "node:vm";

const worker = {self: {location: "http://127.0.0.1/sw.js"}, URL, TextDecoder, DataView,
                Uint8Array, Map};
vm.createContext(worker);
vm.runInContext(readFileSync("%(sw)s", "utf8") +
                "\nself.zipEntries = zipEntries; self.snapshotContainer = snapshotContainer;" +
                "\nself.validators = validators;", worker);
const {zipEntries, snapshotContainer, validators} = worker.self;

const bytes = (list) => new Uint8Array(list);
/* The whole image a container holds, as a boot's restore writes it (into itself here). */
const decode = async (buffer, into = undefined, slice = undefined) => {
  await check(buffer, slice);
  const image = restorable(buffer, into ?? new Uint8Array(new DataView(buffer).getUint32(4, true)));
  image.writeImage(image, 0, image.length);
  return image;
};
const cases = JSON.parse(readFileSync(0, "utf8"));
const answers = await Promise.all(cases.map(async ({kind, data, size, from, dirtyEnd}) => {
  if (kind === "roundtrip") {
    const image = bytes(data);
    const stored = encode(image);
    const back = await decode(stored);
    return {stored: stored.byteLength, same: back.length === image.length
            && back.every((v, i) => v === image[i]), container: snapshotContainer(stored)};
  }
  if (kind === "into") {  // decoded into an array of zeros of `size` bytes, as a boot does
    const into = new Uint8Array(size);
    try { await decode(bytes(data).buffer, into); } catch (error) { return {decoded: false}; }
    return {decoded: true, busy: into.reduce((count, v) => count + (v !== 0), 0)};
  }
  if (kind === "sliced") {  // the checksum summed a few bytes a task: each slice size
    const answers = [];
    for (const slice of [12, 4096, 65540, 1 << 22]) {
      try { await decode(bytes(data).buffer, undefined, slice); answers.push(true); }
      catch (error) { answers.push(false); }
    }
    return answers;
  }
  if (kind === "written") {  // as a restore writes it: the header's pages, then into a memory
    const into = restorable(encode(bytes(data)), new Uint8Array(data.length));
    const heap = new Uint8Array(size).fill(0xAA);
    into.writeImage(heap, from, dirtyEnd);
    return {into: Array.from(into), heap: Array.from(heap)};
  }
  if (kind === "validators") {  // the same headers read by the page and by the worker
    const response = {headers: new Map(Object.entries(data))};
    return [pageValidators(response), validators(response)];
  }
  if (kind === "container") {
    const buffer = bytes(data).buffer;
    let decoded = true;
    try { await decode(buffer); } catch (error) { decoded = false; }
    return {decoded, container: snapshotContainer(buffer)};
  }
  const entries = zipEntries(bytes(data).buffer);
  return entries && [...entries.values()];
}));
console.log(JSON.stringify(answers));
"""


def run(cases: list[dict[str, object]]) -> list[object]:
    """The answers of RUNNER to `cases`."""
    script = RUNNER % {"module": ROOT / "boot" / "snapshot.mjs",
                       "wasm": ROOT / "boot" / "wasm-cache.mjs",
                       "sw": ROOT / "boot" / "sw-kept.js"}
    result = subprocess.run(["node", "--input-type=module", "-e", script],
                            input=json.dumps(cases), capture_output=True, text=True,
                            timeout=120, check=True)
    answers = json.loads(result.stdout)
    assert isinstance(answers, list)
    return answers


def sparse_image(rng: random.Random, size: int) -> list[int]:
    """An image of `size` bytes, mostly zeros, with a few busy stretches."""
    image = [0] * size
    for _ in range(rng.randrange(0, 6)):
        start = rng.randrange(size)
        for at in range(start, min(size, start + rng.randrange(1, 3000))):
            image[at] = rng.randrange(1, 256)
    return image


def test_an_image_comes_back_whole_and_its_empty_pages_are_not_stored() -> None:
    rng = random.Random(7)
    sizes = [1, 8, 65536, 65537, 3 * 65536 + 13, 5 * 65536 + 128]
    images = [sparse_image(rng, size) for size in sizes] + [[0] * 200_000]
    answers = run([{"kind": "roundtrip", "data": image} for image in images])
    for image, answer in zip(images, answers, strict=True):
        assert isinstance(answer, dict)
        assert answer["same"] is True and answer["container"] is True
        busy = {at // 65536 for at, byte in enumerate(image) if byte}
        pages = sum(min(65536, len(image) - page * 65536) for page in busy)
        assert answer["stored"] == 24 + 4 * len(busy) + pages


def checksum(body: bytes) -> tuple[int, int]:
    """Fletcher's checksum over little-endian 32-bit words, the last few bytes one by one."""
    a, b, whole = 1, 0, len(body) // 4 * 4
    for value in [word for (word,) in struct.iter_unpack("<I", body[:whole])] + list(body[whole:]):
        a = (a + value) % 2**32
        b = (b + a) % 2**32
    return a, b


def container(size: int, pages: list[int], page_size: int = 65536, magic: int = 0x3253434C,
              extra: bytes = b"", damage: bool = False) -> list[int]:
    """A container laid out as `encode` writes one, with pages of 0x01 bytes; `damage`: one
    byte changed after its checksum was taken."""
    body = b"".join(value.to_bytes(4, "little") for value in pages) + b"".join(
        bytes([1]) * min(page_size, size - page * page_size) for page in pages)
    head = b"".join(value.to_bytes(4, "little")
                    for value in (magic, size, page_size, len(pages), *checksum(body)))
    data = bytearray(head + body + extra)
    if damage:
        data[len(data) // 2] ^= 0xFF
    return list(data)


@pytest.mark.parametrize(("data", "good"), [
    (container(200_000, [0, 3]), True),
    (container(200_000, [0, 3], magic=0x12345678), False),
    (container(200_000, [3, 0]), False),
    (container(200_000, [0, 0]), False),
    (container(200_000, [0, 4]), False),  # past the last page
    (container(200_000, [0, 3], extra=b"\0"), False),
    (container(200_000, [0, 3])[:-1], False),
    (container(200_000, [1], page_size=4096 * 3), False),  # not the page size encode writes
    (list(b"LCS2"), False),
])
def test_the_page_and_the_service_worker_refuse_the_same_malformed_containers(
    data: list[int], good: bool
) -> None:
    assert run([{"kind": "container", "data": data}]) == [{"decoded": good, "container": good}]


def test_the_page_refuses_a_container_damaged_after_it_was_written() -> None:
    # Well-formed, so the service worker took it; its checksum no longer matches.
    assert run([{"kind": "container", "data": container(200_000, [0, 3], damage=True)}]) == [
        {"decoded": False, "container": True}]


def test_the_checksum_summed_in_slices_is_the_whole_one() -> None:
    # A boot sums the container a slice a task: any slice gives the whole sum, so a sound
    # container is taken and a damaged one refused whatever the slice.
    assert run([{"kind": "sliced", "data": container(200_000, [0, 3], damage=damage)}
                for damage in (False, True)]) == [[True] * 4, [False] * 4]


def test_a_boot_decodes_into_an_array_of_the_recorded_size_only() -> None:
    data = container(200_000, [0, 3])
    busy = 65536 + (200_000 - 3 * 65536)
    assert run([{"kind": "into", "data": data, "size": size}
                for size in (200_000, 200_001, 199_999, 0)]) == [
        {"decoded": True, "busy": busy}, {"decoded": False}, {"decoded": False},
        {"decoded": False}]


def test_a_restore_writes_the_image_into_memory_and_zeros_only_below_the_heap_break() -> None:
    # Pyodide's image starts with its header: its second word is where the memory's bytes
    # start (here past the first page). The runtime's memory (0xAA: bytes written before the
    # restore) gets the image from there on: stored pages copied, pages left out written as
    # zeros below the heap break, and left alone above it, where the runtime never wrote.
    page = 65536
    size, start, dirty_end = 6 * page + 100, page + 40, page + 1000  # the break in page 2
    image = [0] * size
    image[4:8] = list(start.to_bytes(4, "little"))
    for at in (10, page + 5, page + 39, page + 41, 3 * page, 5 * page + 9, size - 1):
        image[at] = 7  # pages 0, 1, 3, 5 and 6 stored; 2 and 4 left out
    answer, = run([{"kind": "written", "data": image, "size": size, "from": start,
                    "dirtyEnd": dirty_end}])
    assert isinstance(answer, dict)
    assert answer["into"][:start] == image[:start]  # the header, for the restore to read
    assert not any(answer["into"][2 * page:])
    heap = answer["heap"]
    stored = {at // page for at, byte in enumerate(image) if byte}
    for at in range(size - start):
        expected = image[start + at] if (start + at) // page in stored or at < dirty_end else 0xAA
        assert heap[at] == expected, at
    assert heap[dirty_end - 1] == 0 and heap[dirty_end] == 0xAA
    assert heap[size - start:] == [0xAA] * start  # past the image: untouched


def make_zip(entries: dict[str, bytes], method: int = zipfile.ZIP_STORED,
             comment: bytes = b"") -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", method) as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
        archive.comment = comment
    return out.getvalue()


def test_the_service_worker_lists_a_zip_from_its_central_directory() -> None:
    entries = {"json/__init__.py": b"x = 1\n", "json/__init__.pyc": b"\0" * 40, "a.txt": b""}
    stored, deflated = make_zip(entries), make_zip(entries, zipfile.ZIP_DEFLATED)
    listed = run([{"kind": "zip", "data": list(stored)}, {"kind": "zip", "data": list(deflated)}])
    for answer, method in zip(listed, (0, 8), strict=True):
        assert isinstance(answer, list)
        assert {entry["name"]: entry["method"] for entry in answer} == dict.fromkeys(entries,
                                                                                      method)
    with zipfile.ZipFile(io.BytesIO(stored)) as archive:
        expected = {info.filename: [info.CRC, info.file_size] for info in archive.infolist()}
    assert {entry["name"]: [entry["crc"], entry["size"]] for entry in listed[0]} == expected


@pytest.mark.parametrize("data", [
    make_zip({"a.py": b"1"}, comment=b"a comment"),  # the end record is not last
    make_zip({"a.py": b"1"})[:-1],
    make_zip({"a.py": b"1"}) + b"\0",
    b"PK\x03\x04 not a zip at all",
    b"",
])
def test_the_service_worker_refuses_what_is_not_a_plain_zip(data: bytes) -> None:
    assert run([{"kind": "zip", "data": list(data)}]) == [None]


def test_the_page_and_the_service_worker_read_the_same_validators_of_the_wasm() -> None:
    cases = [{"ETag": '"abc"', "Content-Length": "9598218"},
             {"Last-Modified": "Tue, 01 Dec 2026 10:00:00 GMT", "Content-Length": "9598218"},
             {"Content-Type": "application/wasm"}, {}]
    answers = run([{"kind": "validators", "data": headers} for headers in cases])
    assert answers == [['"abc"||9598218'] * 2,
                       ["|Tue, 01 Dec 2026 10:00:00 GMT|9598218"] * 2,
                       ["", ""], ["", ""]]  # no validator: nothing to check the HTTP cache by
