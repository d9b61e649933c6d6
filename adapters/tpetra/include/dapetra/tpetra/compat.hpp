/// \file
/// dapetra/tpetra/compat.hpp: every difference between Trilinos versions that
/// Dapetra meets, in one place, so no other file names a version-specific
/// call (scripts/check-compat keeps it so). Compiled and tested against
/// Debian 12's 13.2 and Debian sid's 16.1 (docs/packaging.md).
#pragma once

#include <Tpetra_Map.hpp>
#include <Trilinos_version.h>

namespace dapetra::tpetra::compat {

/// Trilinos 13.4 added Map::getLocalNumElements and deprecated
/// getNodeNumElements, which 14 removed.
/// @param map a Tpetra Map.
/// @return the number of its elements on this process.
template <class MapType>
std::size_t local_num_elements(const MapType& map) {
#if TRILINOS_MAJOR_MINOR_VERSION >= 130400
  return map.getLocalNumElements();
#else
  return map.getNodeNumElements();
#endif
}

/// The global indices this process holds in `map`, in local order (a view
/// into the map): getLocalElementList from 13.4, getNodeElementList before.
/// @param map a Tpetra Map.
/// @return the global indices of its elements on this process.
template <class MapType>
auto local_element_list(const MapType& map) {
#if TRILINOS_MAJOR_MINOR_VERSION >= 130400
  return map.getLocalElementList();
#else
  return map.getNodeElementList();
#endif
}

}  // namespace dapetra::tpetra::compat
