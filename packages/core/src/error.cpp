#include "dapetra/error.hpp"

#include <algorithm>
#include <utility>

namespace dapetra {

Problem Problem::of(int rank, std::string key, std::string value, std::string rule, std::string message, int dim) {
  return Problem{rank, dim, std::move(key), std::move(value), std::move(rule), std::move(message)};
}

bool list_problem(std::vector<Problem>& list, Problem p) {
  if (list.size() >= max_listed_problems) return false;
  list.push_back(std::move(p));
  return true;
}

std::string Problem::to_string() const {
  std::string s;
  const auto add = [&s](const std::string& part) { s += (s.empty() ? "" : ", ") + part; };
  if (rank >= 0) add("rank " + std::to_string(rank));
  if (dim >= 0) add("dim " + std::to_string(dim));
  if (!key.empty()) add("key '" + key + "'" + (value.empty() ? "" : " = " + value));
  s += s.empty() ? "" : ": ";
  s += message;
  if (!rule.empty()) s += " [rule: " + rule + "]";
  return s;
}

bool operator==(const Problem& a, const Problem& b) {
  return a.rank == b.rank && a.dim == b.dim && a.key == b.key && a.value == b.value &&
         a.rule == b.rule && a.message == b.message;
}

static std::string join(const std::vector<Problem>& problems) {
  std::string s = problems.size() == 1 ? "invalid distributed array: "
                                       : std::to_string(problems.size()) + " problems:\n";
  for (std::size_t i = 0; i < problems.size(); ++i)
    s += (problems.size() == 1 ? "" : "  ") + problems[i].to_string() + (i + 1 < problems.size() ? "\n" : "");
  return s;
}

ValidationError::ValidationError(std::vector<Problem> problems)
    : std::runtime_error(join(problems)), problems_(std::move(problems)) {}

void throw_if_any(const std::vector<Problem>& problems) {
  if (problems.empty()) return;
  // A local rule can be found twice: by the process itself and again when
  // every process's records are checked together.
  std::vector<Problem> distinct;
  for (const Problem& p : problems)
    if (std::find(distinct.begin(), distinct.end(), p) == distinct.end()) distinct.push_back(p);
  throw ValidationError(std::move(distinct));
}

}  // namespace dapetra
