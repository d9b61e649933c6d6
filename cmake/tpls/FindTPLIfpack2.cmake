# Ifpack2 from an installed Trilinos, as a TriBITS TPL (see DapetraTrilinosTpl.cmake).
include("${CMAKE_CURRENT_LIST_DIR}/DapetraTrilinosTpl.cmake")
dapetra_trilinos_tpl(Ifpack2 Ifpack2_Factory.hpp ifpack2)
