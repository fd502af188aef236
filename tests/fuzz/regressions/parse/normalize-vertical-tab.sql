SELECT -ÝÒßÒ , - 1;
