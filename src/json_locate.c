/* placeholder */ typedef int mcpi_placeholder_json_locate;
