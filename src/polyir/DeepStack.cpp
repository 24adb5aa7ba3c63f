#include "polyir/DeepStack.h"

#include <pthread.h>
#include <signal.h>

#include <exception>

namespace polyfuse {

namespace {

struct Job {
  const std::function<int()>* work = nullptr;
  int result = 0;
  std::exception_ptr error;
};

void* runJob(void* arg) {
  auto* job = static_cast<Job*>(arg);
  // A library may install a signal stack of its own on this thread (LLVM does, inside
  // PoCL's kernel compiler); the thread's teardown frees the one it set up itself
  // (AddressSanitizer's), so that one is put back before the thread ends.
  stack_t own{};
  const bool known = sigaltstack(nullptr, &own) == 0;
  try {
    job->result = (*job->work)();
  } catch (...) {
    job->error = std::current_exception();
  }
  if (known) sigaltstack(&own, nullptr);
  return nullptr;
}

}  // namespace

int runOnDeepStack(const std::function<int()>& work) {
  Job job;
  job.work = &work;
  pthread_attr_t attr;
  pthread_t thread;
  bool started = pthread_attr_init(&attr) == 0;
  if (started) {
    started = pthread_attr_setstacksize(&attr, kDeepStackBytes) == 0 &&
              pthread_create(&thread, &attr, runJob, &job) == 0;
    pthread_attr_destroy(&attr);
  }
  if (!started) return work();
  pthread_join(thread, nullptr);
  if (job.error) std::rethrow_exception(job.error);
  return job.result;
}

}  // namespace polyfuse
