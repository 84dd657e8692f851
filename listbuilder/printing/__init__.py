"""Printing: what goes on the page as data, Jinja layout to HTML, and WeasyPrint to PDF."""
