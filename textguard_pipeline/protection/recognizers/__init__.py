"""One recogniser per module. The contract is :class:`base.Recognizer`; the registry
(``protection.registry``) loads the classes that the configuration names."""
