"""The PyScript side of Lost Cities: renders views into the DOM and turns clicks into moves."""
