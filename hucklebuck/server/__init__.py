"""The table server behind ``hucklebuck serve`` (optional extra ``hucklebuck[server]``).

Importing :mod:`hucklebuck` never imports this package or the server stack.
"""

# The public names live in the submodules (app, store, tables, ...), each documented there.
__all__: list[str] = []
