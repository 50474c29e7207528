/* Four threads execute one loaded executable at once, each with its own buffers, and read
 * their results back (the framework calls every entry point concurrently). */
#include <pthread.h>
#include <string.h>

#include "support.h"

#define THREADS 4
#define RUNS 25

typedef struct job {
  PJRT_Client *client;
  PJRT_Memory *memory;
  PJRT_LoadedExecutable *exe;
  int id, good;
} job;

static void *worker(void *arg) {
  job *j = arg;
  const int64_t dims[1] = {4};
  for (int r = 0; r < RUNS; r++) {
    float x[4], y[4], got[4] = {0};
    for (int k = 0; k < 4; k++) x[k] = (float)(j->id * 1000 + r), y[k] = (float)k;
    PJRT_Buffer *in[2] = {t_buffer(j->client, NULL, j->memory, PJRT_Buffer_Type_F32, x, dims, 1, NULL),
                          t_buffer(j->client, NULL, j->memory, PJRT_Buffer_Type_F32, y, dims, 1, NULL)};
    PJRT_Buffer *out[1] = {NULL};
    PJRT_Event *done[1] = {NULL};
    if (in[0] && in[1] && OK(t_execute(j->exe, in, 2, out, done, NULL))) {
      t_event_destroy(done[0]);
      bool right = t_read(out[0], got, sizeof got);
      for (int k = 0; k < 4; k++) right = right && got[k] == x[k] + y[k];
      j->good += right;
      t_buffer_destroy(out[0]);
    }
    t_buffer_destroy(in[0]);
    t_buffer_destroy(in[1]);
  }
  return NULL;
}

void t_threads(void) {
  PJRT_Client *c = t_client(PJRT_Client_Create_Args_STRUCT_SIZE, NULL, 0);
  if (!c) return;
  PJRT_Error *err;
  PJRT_LoadedExecutable *exe = t_compile(c, t_add_program, strlen(t_add_program), t_jax_options, t_jax_options_size,
                                         &err);
  if (OK(err)) {
    job jobs[THREADS];
    pthread_t th[THREADS];
    for (int i = 0; i < THREADS; i++) {
      jobs[i] = (job){c, t_memory(t_device(c, 0)), exe, i, 0};
      pthread_create(&th[i], NULL, worker, &jobs[i]);
    }
    for (int i = 0; i < THREADS; i++) {
      pthread_join(th[i], NULL);
      CHECK(jobs[i].good == RUNS, "thread %d: %d of %d runs right", i, jobs[i].good, RUNS);
    }
  }
  t_executable_destroy(exe);
  t_client_destroy(c);
}
