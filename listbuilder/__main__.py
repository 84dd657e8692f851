from listbuilder.cli import main

main()
