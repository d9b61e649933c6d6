/// \file
/// dapetra/error.hpp: what Dapetra reports when an array description is wrong.
///
/// Every rule violation becomes a `Problem` naming where it was found (rank,
/// dimension, key), the offending value and the rule it breaks. Checks collect
/// all problems rather than stopping at the first; functions that cannot go on
/// throw a `ValidationError` carrying the whole list.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace dapetra {

/// How many problems of one kind an error lists: enough to name the fault
/// without a flood (the rest are counted, or dropped).
inline constexpr std::size_t max_listed_problems = 20;

/// One broken rule: which rank, dimension, key and value, the rule, and a message in words.
struct Problem {
  int rank = -1;       ///< MPI rank whose record is at fault; -1 when not rank-specific
  int dim = -1;        ///< dimension index; -1 when not dimension-specific
  std::string key;     ///< dictionary key ("stop", "padding", ...); empty when none
  std::string value;   ///< the offending value as text
  std::string rule;    ///< the rule broken, stated as it should hold
  std::string message; ///< a sentence for a person

  /// A problem of `rank`'s input under `key`.
  /// @param rank the process whose input is at fault (-1: none in particular).
  /// @param key the argument or record key at fault.
  /// @param value the offending value, as text.
  /// @param rule the rule broken, stated as it should hold.
  /// @param message a sentence for a person.
  /// @param dim the dimension at fault (-1: none in particular).
  static Problem of(int rank, std::string key, std::string value, std::string rule, std::string message, int dim = -1);

  /// "rank 1, dim 0, key 'stop' = 20: stop <= size (stop 20 exceeds size 18)"
  /// @return the problem in one line.
  std::string to_string() const;
  /// Equal in every field.
  /// @param a one problem.
  /// @param b another.
  /// @return whether every field is equal.
  friend bool operator==(const Problem& a, const Problem& b);
};

/// Thrown by functions that cannot proceed on invalid input. `what()` lists every
/// problem, one per line.
class ValidationError : public std::runtime_error {
 public:
  /// An error listing every problem found.
  /// @param problems what was found.
  explicit ValidationError(std::vector<Problem> problems);
  /// @return the problems, each naming rank, dimension, key, value and rule.
  const std::vector<Problem>& problems() const noexcept { return problems_; }

 private:
  std::vector<Problem> problems_;
};

/// Throws ValidationError if `problems` is not empty, listing each distinct
/// problem once.
/// @param problems the problems found.
void throw_if_any(const std::vector<Problem>& problems);

/// Appends `p` to `list` unless it already lists max_listed_problems.
/// @param list the problems found so far.
/// @param p one more.
/// @return whether `p` was listed.
bool list_problem(std::vector<Problem>& list, Problem p);

}  // namespace dapetra
