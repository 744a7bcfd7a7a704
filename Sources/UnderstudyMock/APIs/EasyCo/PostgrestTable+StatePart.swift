import UnderstudyPostgREST

/// Each table is a part of EasyCo's state: its journal is what a write changed, persisted and undone by the store.
extension PostgrestTable: StatePart {}
