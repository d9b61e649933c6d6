// Test helper: the seed of a randomized test. Fixed by default, so a plain
// run is reproducible; DAPETRA_TEST_SEED=<n> in the environment (the same on
// every MPI process: mpirun passes it on) draws other cases, which CI does
// with a fresh value on every run. Every test that uses it names the value
// in its failure messages (SCOPED_TRACE), so a failure can be replayed.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <string>

namespace dapetra::testing {

struct Seed {
  std::uint64_t value;  // what the generator starts from
  std::string replay;   // how to get the same cases again
};

inline Seed test_seed(std::uint64_t fixed) {
  const char* env = std::getenv("DAPETRA_TEST_SEED");
  if (!env || !*env) return {fixed, "fixed seed " + std::to_string(fixed) + " (no DAPETRA_TEST_SEED)"};
  const std::uint64_t drawn = std::strtoull(env, nullptr, 10);
  // Each test keeps its own stream: its fixed seed mixed in.
  return {drawn * 0x9e3779b97f4a7c15ULL ^ fixed, std::string("DAPETRA_TEST_SEED=") + env};
}

}  // namespace dapetra::testing
