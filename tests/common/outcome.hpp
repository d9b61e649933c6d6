// Test helper: the ValidationError a call raises, if any (for tests that
// check who raised what, rather than only that something did).
#pragma once

#include <functional>
#include <optional>

#include "dapetra/error.hpp"

namespace dapetra::testing {

inline std::optional<ValidationError> outcome(const std::function<void()>& call) {
  try {
    call();
  } catch (const ValidationError& e) {
    return e;
  }
  return std::nullopt;
}

}  // namespace dapetra::testing
