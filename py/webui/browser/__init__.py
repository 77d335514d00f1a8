"""The one folder that touches the browser (`js`, `pyodide`, `pyscript`): the page's script
(`main`) and boot (`app`), the DOM glue that writes each frame and reads the form (`page`,
`dom`), the player's files (`player_page`), the next boots prepared while idle (`boot`) and
the online part's PeerJS, libsodium and Web Locks (`online`). Everything below it runs
natively."""
