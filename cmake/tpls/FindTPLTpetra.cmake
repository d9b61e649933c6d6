# Tpetra from an installed Trilinos, as a TriBITS TPL (see DapetraTrilinosTpl.cmake).
include("${CMAKE_CURRENT_LIST_DIR}/DapetraTrilinosTpl.cmake")
dapetra_trilinos_tpl(Tpetra Tpetra_Map.hpp tpetra)
