# deal.II as a TriBITS TPL, for the deal.II adapter: found through its
# package config as Dapetra's plain build finds it (cmake/DapetraDealii.cmake;
# Debian: libdeal.ii-dev), its release library and what that links.
find_package(deal.II 9.4 QUIET HINTS ${DEAL_II_DIR} $ENV{DEAL_II_DIR})
if(deal.II_FOUND AND NOT TARGET ${DEAL_II_TARGET_RELEASE})
  include(${DEAL_II_TARGET_CONFIG})
endif()
if(deal.II_FOUND)
  get_target_property(_dapetra_dealii_lib ${DEAL_II_TARGET_RELEASE} LOCATION)
  get_target_property(_dapetra_dealii_links ${DEAL_II_TARGET_RELEASE} INTERFACE_LINK_LIBRARIES)
  set(TPL_dealii_INCLUDE_DIRS "${DEAL_II_INCLUDE_DIRS}" CACHE PATH "deal.II's include directories (its package config)")
  set(TPL_dealii_LIBRARIES "${_dapetra_dealii_lib};${_dapetra_dealii_links}" CACHE FILEPATH "deal.II's libraries (its package config)")
endif()
tribits_tpl_find_include_dirs_and_libraries(dealii REQUIRED_HEADERS deal.II/base/config.h REQUIRED_LIBS_NAMES deal.ii)
