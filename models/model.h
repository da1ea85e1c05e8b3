/* model.h: the models a path can follow, for the host and the path body. */
#ifndef MCP_MODEL_H
#define MCP_MODEL_H

typedef enum mcpi_model {
  MCPI_MODEL_BLACK_SCHOLES = 0,
  MCPI_MODEL_HESTON,
  MCPI_MODEL_MERTON,
  MCPI_MODEL_LOCAL_VOL
} mcpi_model;

/* Normals a step draws (the multi-asset model: one an asset). */
#define MCPI_FACTORS_BLACK_SCHOLES 1
#define MCPI_FACTORS_HESTON 2
#define MCPI_FACTORS_MERTON 3
#define MCPI_FACTORS_LOCAL_VOL 1

#endif
