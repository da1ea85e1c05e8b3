/* placeholder */ typedef int mcpi_placeholder_load_json;
