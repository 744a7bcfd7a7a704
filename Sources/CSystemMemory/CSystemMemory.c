// The module's functions are inline, in include/CSystemMemory.h.
