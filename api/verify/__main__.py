import sys

from api.verify.cli import main

sys.exit(main())
