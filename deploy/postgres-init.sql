-- Databases for the Temporal cluster (main and visibility) and the skillflow platform store.
CREATE DATABASE temporal;
CREATE DATABASE temporal_visibility;
CREATE DATABASE skillflow;
