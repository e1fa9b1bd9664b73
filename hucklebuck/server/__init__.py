"""The table server behind ``hucklebuck serve`` (optional extra ``hucklebuck[server]``).

Importing :mod:`hucklebuck` never imports this package or the server stack.
"""
