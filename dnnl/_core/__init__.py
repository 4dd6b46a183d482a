"""The core every layer above stands on: constants and enums (from
include/dnnl_types.h), errors, argument checks, cache keys, data types, the
switches of the build, the primitive registry, oneDNN's strings and the flat
API's calling conventions. Imports nothing of the package outside itself."""
