"""The page's script (index.html): PyScript compiles it from source at every boot, so it only
starts the app, `webui.browser.app`, which comes compiled in app.zip
(boot/build/compile_app.mjs)."""

from webui.browser.app import start

PAGE = start()
