/* Native folds of rows (see combine.h). */
#include "backends/interp/combine.h"

#define COMBINE_LOOP(T, EXPR)                            \
  do {                                                   \
    T *restrict p_ = acc;                                \
    const T *restrict q_ = x;                            \
    for (int64_t i = 0; i < n; i++) {                    \
      T a_ = p_[i], b_ = q_[i];                          \
      p_[i] = (EXPR);                                    \
    }                                                    \
  } while (0)

/* integers: add and multiply in the unsigned type (they wrap, with no undefined overflow) */
#define COMBINE_INT(T, U)                                                       \
  switch (k) {                                                                  \
    case KILN_OP_ADD: COMBINE_LOOP(T, (T)((U)a_ + (U)b_)); return true;        \
    case KILN_OP_MULTIPLY: COMBINE_LOOP(T, (T)((U)a_ * (U)b_)); return true;   \
    case KILN_OP_MAXIMUM: COMBINE_LOOP(T, a_ > b_ ? a_ : b_); return true;     \
    case KILN_OP_MINIMUM: COMBINE_LOOP(T, a_ < b_ ? a_ : b_); return true;     \
    case KILN_OP_AND: COMBINE_LOOP(T, (T)(a_ & b_)); return true;              \
    case KILN_OP_OR: COMBINE_LOOP(T, (T)(a_ | b_)); return true;               \
    case KILN_OP_XOR: COMBINE_LOOP(T, (T)(a_ ^ b_)); return true;              \
    default: return false;                                                      \
  }

bool kiln_combine(kiln_op_kind k, kiln_elem e, void *restrict acc, const void *restrict x, int64_t n) {
  switch (e) {
    case KILN_ELEM_F32:
      if (k == KILN_OP_ADD) COMBINE_LOOP(float, a_ + b_);
      else if (k == KILN_OP_MULTIPLY) COMBINE_LOOP(float, a_ * b_);
      else return false;
      return true;
    case KILN_ELEM_F64:
      if (k == KILN_OP_ADD) COMBINE_LOOP(double, a_ + b_);
      else if (k == KILN_OP_MULTIPLY) COMBINE_LOOP(double, a_ * b_);
      else return false;
      return true;
    case KILN_ELEM_SI32: COMBINE_INT(int32_t, uint32_t)
    case KILN_ELEM_UI32: COMBINE_INT(uint32_t, uint32_t)
    case KILN_ELEM_SI64: COMBINE_INT(int64_t, uint64_t)
    case KILN_ELEM_UI64: COMBINE_INT(uint64_t, uint64_t)
    default: return false;
  }
}
