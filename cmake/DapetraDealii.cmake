# deal.II for Dapetra's deal.II adapter: its package config (Debian:
# libdeal.ii-dev, /usr/share/cmake/deal.II) names its libraries but gives
# its imported targets (in a file it leaves to DEAL_II_SETUP_TARGET) no
# include directories or definitions, so this wraps
# them into one target, dapetra_dealii_tpl, used by the plain build and the
# TriBITS TPL alike. Sets DAPETRA_DEALII_FOUND.
set(DAPETRA_DEALII_FOUND FALSE)
if(NOT TARGET dapetra_dealii_tpl)
  find_package(deal.II 9.4 QUIET HINTS ${DEAL_II_DIR} $ENV{DEAL_II_DIR})
  if(deal.II_FOUND AND NOT TARGET ${DEAL_II_TARGET_RELEASE})
    include(${DEAL_II_TARGET_CONFIG})  # what DEAL_II_SETUP_TARGET reads: the imported library targets
  endif()
  if(deal.II_FOUND)
    add_library(dapetra_dealii_tpl INTERFACE IMPORTED GLOBAL)
    # deal.II's release library (DEBUG not defined: its debug library is the other one).
    target_link_libraries(dapetra_dealii_tpl INTERFACE ${DEAL_II_TARGET_RELEASE})
    target_include_directories(dapetra_dealii_tpl SYSTEM INTERFACE ${DEAL_II_INCLUDE_DIRS})
    target_compile_definitions(dapetra_dealii_tpl INTERFACE ${DEAL_II_USER_DEFINITIONS})
  endif()
endif()
if(TARGET dapetra_dealii_tpl)
  set(DAPETRA_DEALII_FOUND TRUE)
endif()
