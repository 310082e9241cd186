from . import _moved

_moved.install()  # old module paths (textguard_pipeline.io_managers, .jobs, …) resolve to their new homes
