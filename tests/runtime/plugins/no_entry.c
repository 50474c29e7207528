/* A shared library that is no Kiln plugin: it lacks the entry symbol. */
KILN_NO_ENTRY_EXPORT int kiln_not_an_entry(void);
KILN_NO_ENTRY_EXPORT int kiln_not_an_entry(void) { return 42; }
