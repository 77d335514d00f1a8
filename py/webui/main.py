"""The page's script (index.html): PyScript compiles it from source at every boot, so it only
starts the app, `webui.app`, which comes compiled in app.zip (boot/build/compile_app.mjs)."""

from webui.app import start

PAGE = start()
