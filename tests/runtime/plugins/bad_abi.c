/* A plugin built for another ABI version: the runtime must pass it over. */
#include "kiln/backend.h"

static const kiln_backend k_table = {
    .api_version = 999,
    .struct_size = sizeof(kiln_backend),
    .name = "badabi",
};

KILN_BACKEND_EXPORT const kiln_backend *kiln_backend_entry_v1(void);
KILN_BACKEND_EXPORT const kiln_backend *kiln_backend_entry_v1(void) { return &k_table; }
