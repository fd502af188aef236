-- bytes that are not UTF-8 pass through the scanner into identifiers and strings
SELECT xÿþ FROM tÿ;
SELECT 'ÿ';
