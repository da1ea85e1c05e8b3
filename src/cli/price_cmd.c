typedef int mcpi_placeholder;
