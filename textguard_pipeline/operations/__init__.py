"""Operations: jobs, the corpus sensor and schedule, the config-change sensor, executors, instance storage, the report."""
