# Dapetra's semantic version, read by the plain CMake build and the TriBITS one.
set(DAPETRA_VERSION 0.1.0)
string(REPLACE "." ";" _dapetra_version_parts ${DAPETRA_VERSION})
list(GET _dapetra_version_parts 0 DAPETRA_VERSION_MAJOR)
list(GET _dapetra_version_parts 1 DAPETRA_VERSION_MINOR)
list(GET _dapetra_version_parts 2 DAPETRA_VERSION_PATCH)
# The Distributed Array Protocol version Dapetra writes (it reads any 0.x.y).
set(DAPETRA_DAP_VERSION 0.10.0)
