/// \file
/// dapetra/error.hpp: what Dapetra reports when an array description is wrong.
///
/// Every rule violation becomes a `Problem` naming where it was found (rank,
/// dimension, key), the offending value and the rule it breaks. Checks collect
/// all problems rather than stopping at the first; functions that cannot go on
/// throw a `ValidationError` carrying the whole list.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace dapetra {

/// One broken rule: which rank, dimension, key and value, the rule, and a message in words.
struct Problem {
  int rank = -1;       ///< MPI rank whose record is at fault; -1 when not rank-specific
  int dim = -1;        ///< dimension index; -1 when not dimension-specific
  std::string key;     ///< dictionary key ("stop", "padding", ...); empty when none
  std::string value;   ///< the offending value as text
  std::string rule;    ///< the rule broken, stated as it should hold
  std::string message; ///< a sentence for a person

  /// "rank 1, dim 0, key 'stop' = 20: stop <= size (stop 20 exceeds size 18)"
  std::string to_string() const;
  /// Equal in every field.
  friend bool operator==(const Problem& a, const Problem& b);
};

/// Thrown by functions that cannot proceed on invalid input. `what()` lists every
/// problem, one per line.
class ValidationError : public std::runtime_error {
 public:
  /// An error listing every problem found.
  explicit ValidationError(std::vector<Problem> problems);
  /// The problems, each naming rank, dimension, key, value and rule.
  const std::vector<Problem>& problems() const noexcept { return problems_; }

 private:
  std::vector<Problem> problems_;
};

/// Throws ValidationError if `problems` is not empty, listing each distinct
/// problem once.
void throw_if_any(const std::vector<Problem>& problems);

}  // namespace dapetra
