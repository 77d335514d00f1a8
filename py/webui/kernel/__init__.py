"""The kernel of the page's Python: HTML that escapes by default (`markup`), keyed regions and
their diff (`regions`), the icons (`symbols`), what one screen is (`frame`), the table's UI
state (`uistate`) and setting a bad save aside (`setaside`). It imports no other webui folder."""
