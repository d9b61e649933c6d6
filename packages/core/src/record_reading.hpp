// Typed reads out of a RecordValue that record a Problem for every missing
// key, wrong type or out-of-range number instead of throwing: shared by the
// dimension-record reader and the layout file's outer levels (json.cpp).
#pragma once

#include <string>
#include <vector>

#include "dapetra/record_reader.hpp"

namespace dapetra::detail {

struct FieldReader {
  std::vector<Problem>& out;
  RecordPlace where;

  void fail(const std::string& key, const std::string& value, const std::string& rule, const std::string& message);
  // An integer in [lo, hi].
  bool integer(const RecordValue& v, const std::string& key, global_index_t lo, global_index_t hi, global_index_t& x);
  bool boolean(const RecordValue& v, const std::string& key, bool& b);
  // A list of integers, each at least lo.
  bool integer_list(const RecordValue& v, const std::string& key, global_index_t lo, std::vector<global_index_t>& x);
};

}  // namespace dapetra::detail
