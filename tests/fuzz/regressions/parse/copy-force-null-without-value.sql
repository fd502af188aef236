COPY t FROM STDIN (force_null 
);
