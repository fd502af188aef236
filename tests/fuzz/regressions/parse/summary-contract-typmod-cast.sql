ALTER FOREIGN TABLE ft ADD COLUMN c intoluTIONS (column_name 'C');
