/* A lean while loop compiled whole (while_driver.h). */
#include "backends/cpu/while_driver.h"

/* The most work (kiln_cpu_step.work: points times elements folded, for a loop; the
 * elements of its values, for another step) an iteration of a driven body may have: at
 * 16,384, an iteration takes some microseconds, against a replay's 4-5 ns a step. */
enum { DRIVER_MAX_WORK = 1 << 14 };

/* The elements a dynamic_slice reads (its result) or a dynamic_update_slice writes (its
 * update, values[1]): a scan's row of its input or output, not the whole of it. */
static int64_t slice_elements(const kiln_cpu_executable *body, const kiln_cpu_step *step) {
  int32_t v = step->op->kind == KILN_OP_DYNAMIC_UPDATE_SLICE ? step->values[1] : step->values[step->num_values - 1];
  const kiln_type *t = body->slots[v].type;
  return t && kiln_type_is_tensor(t) ? t->tensor.num_elements : 0;
}

/* Whether body's steps and cond can be driven (while_driver.h). */
static bool qualifies(const kiln_cpu_executable *body, const kiln_cpu_while_cond *cond) {
  int bits = kiln_elem_bits(cond->elem);
  if (body->quick || body->baseline || body->family || body->step_ns || body->num_steps < 1 ||
      body->num_steps > KILN_CPU_DRIVER_MAX_STEPS || (bits != 8 && bits != 16 && bits != 32 && bits != 64))
    return false;
  int64_t work = 0;
  for (int32_t s = 0; s < body->num_steps; s++) {
    const kiln_cpu_step *step = &body->steps[s];
    if (step->kind == KILN_CPU_STEP_INTERP || step->kind == KILN_CPU_STEP_CONTROL) return false;
    if (step->kind == KILN_CPU_STEP_LOOP) work += step->work;
    else if (step->kind == KILN_CPU_STEP_DYNSLICE) work += slice_elements(body, step);
    for (int32_t k = 0; step->kind != KILN_CPU_STEP_LOOP && step->kind != KILN_CPU_STEP_DYNSLICE && k < step->num_values; k++) {
      const kiln_type *t = body->slots[step->values[k]].type;
      if (t && kiln_type_is_tensor(t)) work += t->tensor.num_elements;
    }
    if (work > DRIVER_MAX_WORK) return false;
  }
  return true;
}

/* Whether step runs in the driver: a generated loop alone on the calling thread. */
static bool driven(const kiln_cpu_step *step) {
  return step->kind == KILN_CPU_STEP_LOOP && step->run_length <= 1 && step->fn &&
         kiln_cpu_parallel_alone(step->points, step->loop->grain, step->work);
}

kiln_status kiln_cpu_while_driver(const kiln_cpu_executable *body, const kiln_cpu_while_cond *cond,
                                  kiln_cpu_code **out_code, kiln_cpu_while_fn *out_fn) {
  *out_code = NULL;
  *out_fn = NULL;
  if (!qualifies(body, cond)) return NULL;
  kiln_cpu_loop *loops[KILN_CPU_DRIVER_MAX_STEPS];
  int64_t points[KILN_CPU_DRIVER_MAX_STEPS], offsets[KILN_CPU_DRIVER_MAX_STEPS];
  int32_t n = body->num_steps;
  for (int32_t s = 0, at = 0; s < n; s++) {
    const kiln_cpu_step *step = &body->steps[s];
    loops[s] = driven(step) ? step->loop : NULL;
    points[s] = step->points;
    offsets[s] = at; /* a step's values, then its numbers (exec.c: fill_args) */
    for (int32_t j = 0; j < (step->kind == KILN_CPU_STEP_LOOP && step->run_length > 1 ? step->run_length : 1); j++)
      at += step[j].num_values + 1;
    if (step->kind == KILN_CPU_STEP_LOOP && step->run_length > 1) { /* the run's other steps go with its first */
      for (int32_t j = 1; j < step->run_length; j++) loops[s + j] = NULL, points[s + j] = -1, offsets[s + j] = -1;
      s += step->run_length - 1;
    }
  }
  kiln_cpu_while_body b = {n, loops, points, offsets, kiln_cpu_lean_size(body)};
  return kiln_cpu_while_code(&b, cond, out_code, out_fn);
}
