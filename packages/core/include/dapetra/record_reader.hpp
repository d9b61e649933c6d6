/// \file
/// dapetra/record_reader.hpp: one reader of dimension records, whatever holds them.
///
/// A dimension record reaches Dapetra as JSON text (layout files), as a
/// Python dict (the Python module), or in any other tree of values a caller
/// keeps. All are read by the same code, read_dim_record: it alone knows the
/// spec's keys for each dist_type, their types and ranges, and it names every
/// problem (rank, dimension, key, value, rule) instead of throwing. A holder
/// of values takes part by wrapping one value in a RecordValue; nothing is
/// converted to text on the way.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dapetra/dim.hpp"
#include "dapetra/error.hpp"

namespace dapetra {

/// One value of a record tree, as the reader sees it. Implementations wrap
/// their own value type (a JSON node, a Python object) and are cheap to
/// construct on the stack; the reader asks only what kind() allows.
class RecordValue {
 public:
  /// What a value is, in the terms of the spec's records.
  enum class Kind { null, boolean, integer, number, string, list, object, other };

  virtual ~RecordValue() = default;

  /// @return this value's kind (`number` is any number that is not an integer).
  virtual Kind kind() const = 0;
  /// @return kind::boolean: the value.
  virtual bool boolean() const = 0;
  /// @return kind::integer: the value, or nullopt where it does not fit in 64-bit signed.
  virtual std::optional<global_index_t> integer() const = 0;
  /// @return kind::string: the text.
  virtual std::string text() const = 0;
  /// Kind::list: `f` on each item in order, until `f` returns false.
  /// @param f called with each item; returning false stops.
  virtual void for_each_item(const std::function<bool(const RecordValue&)>& f) const = 0;
  /// Kind::object: `f` on each key and value.
  /// @param f called with each key and value.
  virtual void for_each_member(const std::function<void(std::string_view key, const RecordValue&)>& f) const = 0;
  /// Kind::list held as packed integers (a NumPy array): all of them, read
  /// at once. The default says "not packed", and the reader reads item by item.
  /// @param out receives the integers.
  /// @return whether the value is such an array.
  virtual bool packed_integers(std::vector<global_index_t>& out) const {
    (void)out;
    return false;
  }
  /// @return the value quoted for a message, at most 60 characters.
  virtual std::string brief() const = 0;
  /// The value's type for a message ("an integer", "a string", ...). Kind::other
  /// values are named by the holder.
  /// @return the value's type, as its library names it.
  virtual std::string type_name() const;
};

/// Where a record sits, for the problems that name it.
struct RecordPlace {
  /// The process whose record it is (-1: not known).
  int rank = -1;
  /// The dimension (axis) it describes.
  int dim = -1;
};

/// Reads one dimension record: the spec's keys for its dist_type, each of
/// the right type and range, the required ones present. The empty record
/// `{}` (the spec's alias for an undistributed axis) becomes one of
/// `local_extent` elements, and is a problem where that is not known.
/// Returns the Dim, or nullopt after appending one Problem per fault found.
/// @param record the value read.
/// @param where which process and axis it is, for problems.
/// @param local_extent the buffer's extent along the axis, when known.
/// @param problems receives what is wrong.
/// @return the record, or nothing when it could not be read.
std::optional<Dim> read_dim_record(const RecordValue& record, RecordPlace where,
                                   std::optional<global_index_t> local_extent, std::vector<Problem>& problems);

}  // namespace dapetra
