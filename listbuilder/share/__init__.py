"""Sharing and editing lists: text and JSON exchange, edits that keep the user's bytes, diffs, editor schema."""
