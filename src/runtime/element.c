/* The element type table of the public API. */
#include "runtime/element.h"

typedef struct element_entry {
  kiln_element_type type;
  kiln_elem elem;
} element_entry;

static const element_entry k_elements[] = {
    {KILN_ELEMENT_TYPE_PRED, KILN_ELEM_I1},
    {KILN_ELEMENT_TYPE_S2, KILN_ELEM_SI2},
    {KILN_ELEMENT_TYPE_S4, KILN_ELEM_SI4},
    {KILN_ELEMENT_TYPE_S8, KILN_ELEM_SI8},
    {KILN_ELEMENT_TYPE_S16, KILN_ELEM_SI16},
    {KILN_ELEMENT_TYPE_S32, KILN_ELEM_SI32},
    {KILN_ELEMENT_TYPE_S64, KILN_ELEM_SI64},
    {KILN_ELEMENT_TYPE_U2, KILN_ELEM_UI2},
    {KILN_ELEMENT_TYPE_U4, KILN_ELEM_UI4},
    {KILN_ELEMENT_TYPE_U8, KILN_ELEM_UI8},
    {KILN_ELEMENT_TYPE_U16, KILN_ELEM_UI16},
    {KILN_ELEMENT_TYPE_U32, KILN_ELEM_UI32},
    {KILN_ELEMENT_TYPE_U64, KILN_ELEM_UI64},
    {KILN_ELEMENT_TYPE_F4E2M1FN, KILN_ELEM_F4E2M1FN},
    {KILN_ELEMENT_TYPE_F6E2M3FN, KILN_ELEM_F6E2M3FN},
    {KILN_ELEMENT_TYPE_F6E3M2FN, KILN_ELEM_F6E3M2FN},
    {KILN_ELEMENT_TYPE_F8E3M4, KILN_ELEM_F8E3M4},
    {KILN_ELEMENT_TYPE_F8E4M3, KILN_ELEM_F8E4M3},
    {KILN_ELEMENT_TYPE_F8E4M3FN, KILN_ELEM_F8E4M3FN},
    {KILN_ELEMENT_TYPE_F8E4M3FNUZ, KILN_ELEM_F8E4M3FNUZ},
    {KILN_ELEMENT_TYPE_F8E4M3B11FNUZ, KILN_ELEM_F8E4M3B11FNUZ},
    {KILN_ELEMENT_TYPE_F8E5M2, KILN_ELEM_F8E5M2},
    {KILN_ELEMENT_TYPE_F8E5M2FNUZ, KILN_ELEM_F8E5M2FNUZ},
    {KILN_ELEMENT_TYPE_F8E8M0FNU, KILN_ELEM_F8E8M0FNU},
    {KILN_ELEMENT_TYPE_BF16, KILN_ELEM_BF16},
    {KILN_ELEMENT_TYPE_F16, KILN_ELEM_F16},
    {KILN_ELEMENT_TYPE_TF32, KILN_ELEM_TF32},
    {KILN_ELEMENT_TYPE_F32, KILN_ELEM_F32},
    {KILN_ELEMENT_TYPE_F64, KILN_ELEM_F64},
    {KILN_ELEMENT_TYPE_C64, KILN_ELEM_C64},
    {KILN_ELEMENT_TYPE_C128, KILN_ELEM_C128},
};
enum { NUM_ELEMENTS = sizeof k_elements / sizeof k_elements[0] };

kiln_element_type kiln_element_type_from_elem(kiln_elem elem) {
  for (int i = 0; i < NUM_ELEMENTS; i++)
    if (k_elements[i].elem == elem) return k_elements[i].type;
  return KILN_ELEMENT_TYPE_INVALID;
}

kiln_elem kiln_element_type_to_elem(kiln_element_type type) {
  for (int i = 0; i < NUM_ELEMENTS; i++)
    if (k_elements[i].type == type) return k_elements[i].elem;
  return KILN_ELEM_COUNT;
}

size_t kiln_element_type_size(kiln_element_type type) {
  kiln_elem e = kiln_element_type_to_elem(type);
  return e == KILN_ELEM_COUNT ? 0 : kiln_elem_storage_bytes(e);
}

const char *kiln_element_type_name(kiln_element_type type) {
  if (type == KILN_ELEMENT_TYPE_TOKEN) return "!stablehlo.token";
  if (type == KILN_ELEMENT_TYPE_TUPLE) return "tuple";
  kiln_elem e = kiln_element_type_to_elem(type);
  return e == KILN_ELEM_COUNT ? "invalid" : kiln_elem_name(e);
}
