"""The Python half of the boot path (docs/boot.md): what a booted page prepares, while the
player leaves it alone, for the next boots. It lives in app.zip with the rest of the app, since
it runs in the page's interpreter; the browser half and the build steps are in boot/.

- `warm`: the idle-time steps (bytecode, then the boot snapshot);
- `bytecode`: the standard library zip rebuilt with every module compiled.
"""
