import sys

try:
    from .cli import main
except KeyboardInterrupt:  # Ctrl-C while importing: one line, no traceback
    print("interrupted", file=sys.stderr)
    sys.exit(130)

sys.exit(main())
