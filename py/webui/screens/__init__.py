"""The screens: a view and the UI state made into HTML, with the words of `text`. The table
(`table`), the screens around it and the match's whole document (`match`), the online screens
and the connection badge (`online`), the app-update offer (`update_offer`), and the HTML
building blocks they share (`html`)."""
