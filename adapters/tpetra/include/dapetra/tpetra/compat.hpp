/// \file
/// dapetra/tpetra/compat.hpp: every difference between Trilinos versions that
/// Dapetra meets, in one place (compiled against Debian's 13.2; the names used
/// for 13.4-16 were read, not compiled: docs/packaging.md).
#pragma once

#include <Tpetra_Map.hpp>
#include <Trilinos_version.h>

namespace dapetra::tpetra::compat {

/// Trilinos 13.4 added Map::getLocalNumElements and deprecated
/// getNodeNumElements, which 14 removed.
template <class MapType>
std::size_t local_num_elements(const MapType& map) {
#if TRILINOS_MAJOR_MINOR_VERSION >= 130400
  return map.getLocalNumElements();
#else
  return map.getNodeNumElements();
#endif
}

}  // namespace dapetra::tpetra::compat
