"""The one place the environment is read: every ``TEXTGUARD_*`` variable becomes a typed, frozen object here.

Each capability has a block below with a frozen dataclass and a reader ``<name>_settings(env=None)``.
Library code receives these objects (or the plain values in them); it never reads ``os.environ``.
Dagster resources are generated from the same dataclasses (``defs_kit.resources``), so every field is
declared once. ``env`` may be any mapping (tests pass a dict); by default the process environment is read
at call time, so a test that sets a variable sees it on the next call.

Values are checked when read: an unknown boolean (``TEXTGUARD_PROTECT_NER=maybe``) or a bad number is a
``SettingsError`` naming the variable, not a silent default.
"""

from ..lib.setting_rules import SettingsError, check_settings, checked  # noqa: F401  (the API of settings)
from .analysis import *  # noqa: F403
from .env import *  # noqa: F403
from .env import _apply_environ  # noqa: F401
from .llm import *  # noqa: F403
from .meanings import *  # noqa: F403
from .operations import *  # noqa: F403
