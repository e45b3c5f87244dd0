/* Empty: the shim lives in its header. */
