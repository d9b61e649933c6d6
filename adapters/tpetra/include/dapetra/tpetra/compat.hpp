/// \file
/// dapetra/tpetra/compat.hpp: every difference between Trilinos versions that
/// Dapetra meets, in one place (tested against Debian's 13.2; written for 14-16).
#pragma once

#include <Tpetra_Map.hpp>
#include <Trilinos_version.h>

namespace dapetra::tpetra::compat {

/// Trilinos 14 renamed Map::getNodeNumElements to getLocalNumElements.
template <class MapType>
std::size_t local_num_elements(const MapType& map) {
#if TRILINOS_MAJOR_VERSION >= 14
  return map.getLocalNumElements();
#else
  return map.getNodeNumElements();
#endif
}

}  // namespace dapetra::tpetra::compat
