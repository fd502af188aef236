-- Every constant kind: integers, big integers (Float), negatives, numerics, strings of every quoting style, bit strings, booleans, NULL.

-- integers
SELECT 0;
SELECT 1, 42, 2147483647;
SELECT 00012;
SELECT 2147483648;
SELECT 4294967296;
SELECT 9223372036854775807, 9223372036854775808;
SELECT 123456789012345678901234567890;

-- negative numbers
SELECT -5;
SELECT -2147483648;
SELECT -2147483649;
SELECT -9223372036854775808;
SELECT -0;
SELECT - 7;
SELECT -1.5, -.5, -1e3;
SELECT 3 - -2;

-- floats and numerics
SELECT 1.5;
SELECT 1e10;
SELECT .5;
SELECT 1.;
SELECT 1.e5, 5.E-3, 1.5e-3, 2.5E+10, 0.0, 1e0;
SELECT 3.14159265358979323846264338327950288419716939937510;
SELECT 1e308, 1e-308;
SELECT 'NaN'::float8, 'Infinity'::numeric, '-inf'::float4;

-- strings
SELECT '';
SELECT 'hello';
SELECT 'it''s';
SELECT 'multi'
  'line'
  'concatenation';
SELECT '  leading and trailing  ';
SELECT 'semi;colon', 'dash -- not a comment', 'slash /* not a comment */';
SELECT "quoted identifier" FROM t;
SELECT 'unicode ✓ ü 日本';

-- escape strings
SELECT E'a\nb';
SELECT E'tab\there', E'quote\'s', E'backslash\\', E'\x41\101\u0041\U00000041';
SELECT e'lower e prefix';
SELECT E'';

-- Unicode escape strings and identifiers
SELECT U&'d\0061t\+000061';
SELECT U&'d!0061t!+000061' UESCAPE '!';
SELECT U&"d\0061t\+000061" FROM t;
SELECT u&'\00e9';

-- dollar-quoted strings
SELECT $$dollar$$;
SELECT $$$$;
SELECT $tag$it's a $$ nested $$ string$tag$;
SELECT $a$line1
line2$a$;
SELECT $_x1$with ; semicolon$_x1$;

-- bit strings and hex strings
SELECT B'1010';
SELECT b'0', B'';
SELECT X'1F';
SELECT x'deadBEEF', X'';

-- national character strings
SELECT N'national';

-- booleans and NULL
SELECT true;
SELECT false;
SELECT TRUE AND FALSE;
SELECT NULL;
SELECT NULL::int, CAST(NULL AS text);
SELECT NULL IS NULL;

-- typed constants
SELECT int4 '1', float8 '1.5', numeric '1e3', bool 'yes', date 'today';
SELECT interval '1 day', interval '1' day, interval 'P1Y2M3DT4H5M6S';
SELECT '1'::bit(1), '1'::bit varying;

-- constants in other positions
SELECT * FROM t WHERE a = 1 AND b = 'x' AND c = 1.5 AND d IS NULL AND e = true;
SELECT * FROM t LIMIT 4294967296;
SELECT ARRAY[1, -1, 1.5, -1.5, NULL];
VALUES (1, 1.5, 'a', E'b', $$c$$, B'1', X'F', true, NULL, -3);
