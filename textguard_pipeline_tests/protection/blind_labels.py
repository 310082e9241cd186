"""Labels of the blind French/Polish set (issue 17, second round), written by hand BEFORE the pipeline
ran on any of these paragraphs.

Real paragraphs (``data/blind_texts.jsonl``, extracted by ``scripts/build_blind_language_set.py``) are
labelled by id; the written paragraphs are below (``WRITTEN``), written for this set by the "lang"
helper (source ``written``), with local number and citation forms the real text lacks.

Per paragraph:

* ``expected``: local number and citation forms that must be protected (decimal comma, spaced
  thousands, ``%`` after a space, ``±``, decimals next to a metric word, citations with ``et coll.``,
  ``i in.``, ``i wsp.``, ``(éd.)``/``(red.)``, ``p.``/``s.`` inside a citation, ``§`` references);
* ``allowed``: proper names, product names, identifiers, file names, field names and cross-references
  that may be protected or not (neither credited nor penalised). Identifier-shaped words (with a
  digit, ``/``, ``_``, ``:``, ``.``, brackets, ``=``, ``*``, ``@``, ``\\`` or a capital after the first
  letter) are allowed by rule (``blind_scoring.identifier``);
* ``ordinary``: ordinary phrases that must never be hidden (sentence-initial words, quoted UI words,
  section titles). Any other protected span that is neither expected nor allowed counts as an
  ordinary phrase hidden too.

Policy decided here before running: a bare page locator without an author (``(s. 282)``) is allowed,
not expected (the English rules do not protect ``(p. 282)`` either); version numbers (``KiCad 6.0``)
and counts (``127 razy``) are not local forms.
"""

from __future__ import annotations

NB = "\u00a0"  # no-break space
NN = "\u202f"  # narrow no-break space
TH = "\u2009"  # thin space

REAL: dict[str, dict[str, list[str]]] = {
    # --- fr: debian-reference-fr
    "00035d91f0": {"allowed": ["Section 12.1"], "ordinary": ["Les scripts de l’interpréteur de commande", "Lorsque"]},
    "00dff02b2e": {"allowed": ["apt", "experimental", "unstable"], "ordinary": ["Voici", "Vous donnez la liste"]},
    "010b3ffe20": {"allowed": ["aptitude", "URL", "deb-src"], "ordinary": ["Les lignes", "Cela accélérera"]},
    "0230d1033f": {"allowed": ["apt", "cron", "unattended-upgrades"], "ordinary": ["Le paquet", "Ce script"]},
    "02550a0ebe": {
        "allowed": ["Release", "Section 2.5.3", "Debian", "Ubuntu", "Pin: release a=unstable", "Pin: release a=sid"],
        "ordinary": ["L’épinglage", "Par exemple", "au niveau de l’archive"],
    },
    "02ceddd1fd": {"allowed": ["Debian"], "ordinary": ["En tant tant qu’administrateur du système", "Bien que"]},
    "034b91311c": {"allowed": ["Debian", "control"], "ordinary": ["En voici une définition"]},
    "04eb6b42c6": {
        "allowed": ["ls(1)", "LANG=C ls -l", "LANG=en_US.UTF-8", "Section 9.3.4"],
        "ordinary": ["Affichage personnalisé de la date et de l’heure", "Le format de date"],
    },
    "05cfd346d7": {
        "allowed": ["todos(1)", "MSDOS", "UNIX", "diff3(1)", "CR", "todos", "sed"],
        "ordinary": ["Cela parce que", "par exemple"],
    },
    "05da1e7aea": {
        "allowed": ["modprobe(8)", "modprobe.conf(5)"],
        "ordinary": ["Les fichiers de configuration", "Si vous souhaitez"],
    },
    "06fb9eab25": {
        "allowed": ["UNIX-like", "Debian", "find(1)", "-print0", "-print"],
        "ordinary": ["Pour les systèmes", "Dans un tel cas", "Vous devrez"],
    },
    "077e6366bf": {"allowed": ["hosts: files dns", "order"], "ordinary": ["Le fichier", "avec une entrée"]},
    # --- fr: maint-guide-fr
    "00a8299b4d": {
        "allowed": ["Architecture: any", "Build-Depends", "Build-Depends-Indep", "debian/rules build", "Section 6.2"],
        "ordinary": ["Serveurs d'empaquetage automatique", "Puisque la procédure"],
    },
    "018c450eee": {"allowed": [], "ordinary": ["Tous les fichiers", "Vous devez faire attention"]},
    "0245948c82": {
        "allowed": ["Section 2.8", "Debian"],
        "ordinary": ["Alors", "Aucune archive compressée", "La suite de l'empaquetage"],
    },
    "02a8caee9b": {
        "allowed": ["Charte Debian", "dh_make"],
        "ordinary": ["En tant que responsable débutant", "scripts du responsable et procédure d'installation"],
    },
    "02ac00248e": {
        "allowed": ["Debian", "[54]"],
        "ordinary": ["Une des choses les plus irritantes", "Lors de la mise à jour"],
    },
    "02d2c04ec4": {"allowed": ["debian/*", "Debian", "Section 2.1"], "ordinary": ["C’est la méthode normale"]},
    "02e8511a89": {
        "allowed": ["Debian", "chapitre 5.8"],
        "ordinary": ["Manipulation des bogues", "Quand vous recevrez", "La lecture de la référence du développeur"],
    },
    "03e549fcb6": {
        "allowed": ["debhelper", "dh-make", "dh_make(8)", "debhelper(1)", "[3]"],
        "ordinary": ["Ils rendent le processus complet"],
    },
    "05061072db": {"allowed": ["dpkg"], "ordinary": ["Si le paquet", "De nombreux bogues", "Utilisez la commande"]},
    "050acf9c2b": {
        "allowed": [
            "Debian",
            "main",
            "non-free",
            "contrib",
            "admin",
            "devel",
            "doc",
            "libs",
            "mail",
            "net",
            "x11",
            "X11",
        ],
        "ordinary": ["Comme vous avez pu le constater", "Chacune d'entre elles", "Entre autres"],
    },
    # --- fr: aptitude-doc-fr
    "00a97b86e4": {"allowed": ["aptitude"], "ordinary": ["Le texte", "Le premier nombre", "La présence du texte"]},
    "032fb396c5": {"allowed": ["Marqueur", "Debian"], "ordinary": ["Regrouper les paquets", "Sinon"]},
    "03b7ec0f8d": {"allowed": ["root", "aptitude"], "ordinary": ["Certaines actions"]},
    "04c574f9bf": {"allowed": [], "ordinary": ["Comme vous pouvez le voir", "Les cases", "Les chiffres"]},
    "050ef2df40": {
        "allowed": ["Section", "games", "arcade"],
        "ordinary": ["Regrouper en fonction", "Sinon", "Par exemple"],
    },
    "0520b5e9f7": {"allowed": [], "ordinary": ["Des conflits", "Mais les autres paquets", "La résolution immédiate"]},
    "0688d08fe9": {
        "allowed": ["debian-tasks.desc", "tasksel", "task"],
        "ordinary": ["Tâches", "Crée une arborescence", "La règle suivant"],
    },
    "06cf50b22f": {"allowed": ["pipe"], "ordinary": ["Par défaut", "Lorsque la sortie"]},
    # --- fr: debian-edu-doc-fr
    "013cb27350": {"allowed": ["GOsa²"], "ordinary": ["Ensuite", "Pour la navigation"]},
    "014a2c33e7": {"allowed": [], "ordinary": ["Le format de ces entrées de système"]},
    "02173bf6da": {
        "allowed": ["USB", "Blu-ray", "Internet"],
        "ordinary": ["Si vous effectuez l'installation", "Si vous avez un accès"],
    },
    "0319c87675": {"allowed": ["DNS"], "ordinary": ["Par défaut", "externe"]},
    "04fcc300bd": {"allowed": ["iPXE", "debian-edu-pxeinstall"], "ordinary": ["L'entrée de menu", "Il peut écraser"]},
    "06982c8dd9": {"allowed": [], "ordinary": ["Les élèves et les enseignants", "Le serveur web", "Les utilisateurs"]},
    "0ae9b9ddcb": {
        "allowed": ["Internet", "autossh", "SSH"],
        "ordinary": ["Pour accéder", "À partir de cette machine"],
    },
    "0bf7c47956": {
        "allowed": ["OK"],
        "ordinary": ["Groupes", "Actions", "Créer", "Groupe", "Base", "Choisissez", "Entrez un nom de groupe"],
    },
    "0cd0459e36": {"allowed": ["LDAP"], "ordinary": ["L'ajout d'utilisateurs", "Vérifiez également"]},
    "1210269fef": {
        "allowed": ["Windows", "Apple", "CA", "freeRADIUS", "mobileconfig"],
        "ordinary": ["Veuillez noter", "Pour les périphériques", "Dans les deux cas"],
    },
    # --- pl: kicad-doc-pl
    "0dd68e6dab": {
        "allowed": [],
        "ordinary": ["Operacja odzyskiwania", "Nie powinno się", "Wszelkie uszkodzone łącza"],
    },
    "10763b3e36": {"allowed": [], "ordinary": ["Biblioteki symboli", "Każdy symbol", "Przykładowo"]},
    "11520a92fa": {"allowed": [], "ordinary": ["Dla każdego zestawu", "Lista rozwijana"]},
    "1336e72990": {"allowed": [], "ordinary": ["Jeśli w treści tekstu"]},
    "1c74283c65": {"allowed": ["KiCad"], "ordinary": ["Program", "To zachowanie"]},
    "2855f65a46": {
        "allowed": ["USB", "DP", "DM", "VBUS"],
        "ordinary": ["Alias może", "Korzystając z okna dialogowego", "Jako skrót", "W tym przykładzie"],
    },
    "29b4cedbe2": {"allowed": ["Spice"], "ordinary": ["Definiuje właściwości komponentu", "Wartość", "Zauważ"]},
    "325684405a": {"allowed": [], "ordinary": ["Folder metadanych", "Wszystkie pliki"]},
    "340cd98fe4": {"allowed": ["SCL", "SDA"], "ordinary": ["Na przykład", "W przypadku projektów"]},
    "3fb9763c67": {"allowed": [], "ordinary": ["Zakładka Pasywne", "Jest to rzadko używana opcja"]},
    "4b66457863": {"allowed": ["PCB", "OE", "WE"], "ordinary": ["Magistrale grupowe", "Na przykład"]},
    "5028e574c4": {"allowed": [], "ordinary": ["Każda z tych metod", "Zdefiniowanie wszystkich bibliotek", "Wadą"]},
    "5914aa4d3e": {"allowed": [], "ordinary": ["Widok głównego okna", "Edytor składa się", "Nie wszystkie polecenia"]},
    "59296d9821": {"allowed": [], "ordinary": ["Okno z właściwościami pinu", "Okno to", "Jego zawartość"]},
    "596e2814c5": {"allowed": [], "ordinary": ["Kiedy opcje te"]},
    "5a29619915": {"allowed": ["USB1"], "ordinary": ["Po zdefiniowaniu aliasu", "Ma to taki sam efekt", "Pamiętaj"]},
    # --- pl: debian-edu-doc-legacy-pl (Audacity manual)
    "4450d528d8": {"allowed": ["Audacity", "JACK'a"], "ordinary": ["Konfiguracja", "Przewodnik"]},
    "b6b3a72517": {"allowed": ["GPL v2"], "ordinary": ["Jeśli dodasz", "Następnie", "imię i nazwisko"]},
    "c80b224ad7": {"allowed": [], "ordinary": ["Teraz chcemy", "profil szumu", "A więc"]},
    "c984b5013a": {"allowed": ["Low", "audacity"], "ordinary": ["Teraz poziom głośności", "Jest to lepszy sposób"]},
    "cae2a12cc8": {"allowed": ["smurfesangen", "Import Audio"], "ordinary": ["Po pierwsze", "plik"]},
    "e0a2ea8947": {"allowed": ["ctrl + I"], "ordinary": ["Aby podzielić audio", "Następnie", "Potem"]},
    # --- pl: fortunes-pl (quotations)
    "0103a19fbb": {"allowed": ["Stirlitz"], "ordinary": ["Zapukał umówione", "Nikt nie otworzył", "Po namyśle"]},
    "019886e62a": {"allowed": ["Jan"], "ordinary": ["Miłość w oczach dzieci", "Dlaczego miłość", "Nikt nie wie"]},
    "02db387e26": {"allowed": ["Puchatek"], "ordinary": ["Wiedział"]},
    "04acd17e89": {
        "allowed": [
            "Prosiaczek",
            "Krzysia",
            "Krzyś",
            "Kłapouchego",
            "A.A. Milne",
            "Chatka Puchatka",
            "IW Nasza Księgarnia",
        ],
        "ordinary": ["Więc gdy", "I od tego czasu"],
    },
    "05c0c86b40": {
        "allowed": ["Marysia", "Michał"],
        "ordinary": ["Do szkoły zaproszono fotografa", "Pomyślcie tylko", "Na to cienki głosik"],
    },
    "06a2f8d35a": {"allowed": [], "ordinary": ["Ludzki umysł", "Mądry człowiek", "Oświecenie"]},
    "09e23aebf5": {
        "allowed": ["Urzędu Bezpieczeństwa Rzeszy", "Müller", "Himmler", "Bormann", "Stirlitz", "Związku Radzieckiego"],
        "ordinary": ["Stołówka", "cierpliwie stoją w kolejce", "Nie wiedzą"],
    },
    "1052fae8e8": {"allowed": [], "ordinary": ["Rozważcie wasze ja", "Niech was nie przeraża", "Po mojej śmierci"]},
    "1211957322": {"allowed": ["Stirlitz", "Stirlitzowi"], "ordinary": ["Nagle wazon", "To tajny sygnał", "Tęskni"]},
    "136ccec6f2": {"allowed": [], "ordinary": ["A cóż podwiedzieć", "Zawsze bowiem"]},
    "1558c6bcc5": {"allowed": ["Puchatek", "Puchatkiem"], "ordinary": ["Słońce grzało"]},
    "16514013d4": {
        "allowed": ["Denis Cranmer", "Tailles", "Ostatnie życzenie", "Głos rozsądku 7", "s. 282"],
        "ordinary": ["Skóra się zrasta", "Blizna", "Rycerz bez blizny", "Zapytajcie go"],
    },
    "1a9a3adebb": {
        "allowed": ["Jaskier", "Geralt", "Miecz przeznaczenia", "Trochę poświęcenia", "s. 192"],
        "ordinary": ["Zda ci się jeno", "Dobranoc", "Jesteś cynik"],
    },
    "1ae0d5b775": {"allowed": [], "ordinary": ["Odrażający to rodzaj kuracji", "W podobny sposób"]},
}

#: written for this set (varied prose, not templates); "allowed" holds the personal names in them
WRITTEN: list[dict] = [
    # ------------------------------------------------------------------ French
    {
        "language": "fr",
        "text": "Selon l'enquête de l'Insee, le taux de chômage des moins de 25 ans est passé de 18,4 % à 16,9 % "
        "en deux ans. Les auteurs notent toutefois que la baisse reste inégale selon les régions, et que les "
        "jeunes sans diplôme en profitent beaucoup moins.",
        "expected": ["18,4 %", "16,9 %"],
        "allowed": ["Insee"],
        "ordinary": ["Selon l'enquête", "Les auteurs notent toutefois"],
    },
    {
        "language": "fr",
        "text": "La méthode proposée par Lemaire et coll. (2017) repose sur un échantillonnage stratifié. Elle a "
        f"ensuite été reprise dans plusieurs études de cohorte, dont la plus vaste réunissait 12{NB}480 patients "
        "suivis pendant dix ans dans des hôpitaux publics.",
        "expected": ["Lemaire et coll. (2017)", f"12{NB}480"],
        "allowed": ["Lemaire"],
        "ordinary": ["La méthode proposée", "Elle a ensuite été reprise"],
    },
    {
        "language": "fr",
        "text": "Sur le jeu de validation, la précision moyenne atteint 0,912 et le rappel 0,874, contre "
        "respectivement 0,861 et 0,802 pour le modèle de référence. L'écart se réduit pourtant nettement quand "
        "les phrases dépassent quarante mots.",
        "expected": ["0,912", "0,874", "0,861", "0,802"],
        "allowed": [],
        "ordinary": ["Sur le jeu de validation", "L'écart se réduit pourtant"],
    },
    {
        "language": "fr",
        "text": "Le contrat prévoit, à l'article 7, une pénalité de retard plafonnée à 5 % du montant total. Le "
        "tribunal a rappelé que cette clause ne s'applique qu'après une mise en demeure restée sans effet "
        "(§ 4 du règlement intérieur), ce que la société contestait.",
        "expected": ["5 %", "§ 4"],
        "allowed": [],
        "ordinary": ["Le contrat prévoit", "Le tribunal a rappelé", "la société"],
    },
    {
        "language": "fr",
        "text": "Comme le soulignent Garnier et Roussel (2019, p. 47), la lecture à voix haute améliore la "
        "compréhension des textes longs chez les élèves de sixième. Leur protocole a cependant été critiqué "
        "pour la petite taille de ses groupes.",
        "expected": ["Garnier et Roussel (2019, p. 47)"],
        "allowed": ["Garnier", "Roussel"],
        "ordinary": ["Comme le soulignent", "Leur protocole"],
    },
    {
        "language": "fr",
        "text": f"La population de l'agglomération dépasse désormais 1{NN}250{NN}000 habitants, soit une "
        f"progression de 3,2{NN}% depuis le dernier recensement. La municipalité prévoit d'ouvrir deux nouvelles "
        "lignes de tramway pour absorber cette croissance.",
        "expected": [f"1{NN}250{NN}000", f"3,2{NN}%"],
        "allowed": [],
        "ordinary": ["La population de l'agglomération", "La municipalité prévoit"],
    },
    {
        "language": "fr",
        "text": "Les résultats obtenus sur les trois corpus sont résumés plus bas. La F-mesure varie entre 0,71 "
        "et 0,78 selon le domaine, et l'écart-type reste inférieur à 0,03 pour toutes les graines aléatoires, ce "
        "qui confirme la stabilité de l'apprentissage.",
        "expected": ["0,71", "0,78", "0,03"],
        "allowed": [],
        "ordinary": ["Les résultats obtenus", "selon le domaine"],
    },
    {
        "language": "fr",
        "text": "Dans l'ouvrage collectif dirigé par Bertrand (dir.), 2014, plusieurs chapitres examinent "
        "l'histoire des bibliothèques municipales. On y apprend notamment que les prêts ont augmenté de 12 à 15 % "
        "par an pendant la décennie suivante.",
        "expected": ["Bertrand (dir.), 2014", "12 à 15 %"],
        "allowed": ["Bertrand"],
        "ordinary": ["Dans l'ouvrage collectif", "On y apprend notamment"],
    },
    {
        "language": "fr",
        "text": "La température moyenne relevée en juillet était de 24,6 ± 1,8 degrés, avec des pointes bien "
        "plus élevées dans le sud du pays. Météo-France rappelle que ces valeurs restent provisoires tant que "
        "toutes les stations n'ont pas été contrôlées.",
        "expected": ["24,6 ± 1,8"],
        "allowed": ["Météo-France"],
        "ordinary": ["La température moyenne", "ces valeurs restent provisoires"],
    },
    {
        "language": "fr",
        "text": "Plusieurs travaux récents (Marchand et coll., 2021 ; Perrin, 2022) ont montré que la fatigue "
        "visuelle augmente avec la durée d'exposition aux écrans. Aucun d'entre eux n'a toutefois mesuré l'effet "
        "de la luminosité ambiante.",
        "expected": ["(Marchand et coll., 2021 ; Perrin, 2022)"],
        "allowed": ["Marchand", "Perrin"],
        "ordinary": ["Plusieurs travaux récents", "Aucun d'entre eux"],
    },
    {
        "language": "fr",
        "text": "« Nous avons longtemps sous-estimé le coût de l'entretien », reconnaît Hélène Moreau, adjointe "
        "chargée des finances. Le budget annuel consacré aux routes atteint pourtant 2 400 000 euros, soit près "
        "d'un quart des dépenses d'investissement.",
        "expected": ["2 400 000"],
        "allowed": ["Hélène Moreau"],
        "ordinary": ["Nous avons longtemps sous-estimé", "Le budget annuel"],
    },
    {
        "language": "fr",
        "text": "L'article L. 212-4 du Code du travail, cité au § 12 de la décision, définit la durée du travail "
        "effectif. La cour en déduit que les temps d'habillage ne sont pas rémunérés sauf accord collectif "
        "contraire, ce qui concerne environ 7,5 % des salariés du secteur.",
        "expected": ["§ 12", "7,5 %"],
        "allowed": ["L. 212-4", "Code du travail"],
        "ordinary": ["La cour en déduit", "les temps d'habillage"],
    },
    {
        "language": "fr",
        "text": "Méthodes Et Protocole Expérimental. Chaque participant a lu vingt textes courts avant de répondre "
        "à un questionnaire de compréhension. Les réponses ont été notées par deux correcteurs indépendants, "
        "sans connaître le groupe d'origine des copies.",
        "expected": [],
        "allowed": [],
        "ordinary": ["Méthodes Et Protocole Expérimental", "Chaque participant", "Les réponses"],
    },
    {
        "language": "fr",
        "text": "D'après Fabre (éd.), 2016, p. 88, les premiers moulins à papier de la vallée datent du "
        "quatorzième siècle. Le musée local conserve encore quelques formes en laiton qui servaient à fabriquer "
        "les feuilles une à une.",
        "expected": ["Fabre (éd.), 2016, p. 88"],
        "allowed": ["Fabre"],
        "ordinary": ["les premiers moulins", "Le musée local"],
    },
    {
        "language": "fr",
        "text": "Le taux d'erreur du système descend à 4,3 % lorsque l'on ajoute les données bruitées à "
        "l'entraînement, contre 6,1 % sans elles. Cette amélioration se maintient sur les accents régionaux, "
        "qui étaient jusqu'ici la principale faiblesse du modèle.",
        "expected": ["4,3 %", "6,1 %"],
        "allowed": [],
        "ordinary": ["Le taux d'erreur", "Cette amélioration"],
    },
    {
        "language": "fr",
        "text": "Voir aussi Chauvin et coll., 2012, qui proposent une analyse comparable pour les zones de "
        "montagne. Les deux études concluent que la fréquentation touristique a doublé en quinze ans, alors que "
        "le nombre de lits disponibles stagnait.",
        "expected": ["Chauvin et coll., 2012"],
        "allowed": ["Chauvin"],
        "ordinary": ["Les deux études concluent", "la fréquentation touristique"],
    },
    {
        "language": "fr",
        "text": f"La récolte de cette année s'élève à 3{TH}450 tonnes, un niveau proche de la moyenne décennale. "
        "Les producteurs s'inquiètent néanmoins de la sécheresse printanière, qui pourrait réduire les "
        "rendements de la prochaine saison si les pluies tardent encore.",
        "expected": [f"3{TH}450"],
        "allowed": [],
        "ordinary": ["La récolte de cette année", "Les producteurs s'inquiètent"],
    },
    {
        "language": "fr",
        "text": "Le Conseil d'État a rejeté le recours en rappelant les §§ 3 à 5 de l'avis rendu l'année "
        "précédente. Selon la haute juridiction, l'administration n'avait commis aucune erreur manifeste "
        "d'appréciation en refusant l'autorisation demandée.",
        "expected": ["§§ 3 à 5"],
        "allowed": ["Conseil d'État"],
        "ordinary": ["Selon la haute juridiction", "l'administration"],
    },
    {
        "language": "fr",
        "text": "Dans une étude menée auprès de 640 familles (Lacroix et Vidal, 2018), la part des dépenses "
        "consacrées à l'alimentation atteignait 21,7 % du revenu disponible. Elle était nettement plus élevée "
        "chez les ménages monoparentaux.",
        "expected": ["(Lacroix et Vidal, 2018)", "21,7 %"],
        "allowed": ["Lacroix", "Vidal"],
        "ordinary": ["Dans une étude menée", "Elle était nettement plus élevée"],
    },
    {
        "language": "fr",
        "text": "Le jeune cycliste breton a remporté l'étape de montagne avec une avance de quarante secondes. "
        "Son équipe, longtemps discrète, espère désormais le voir porter le maillot à pois jusqu'à Paris, mais "
        "la dernière semaine s'annonce très difficile.",
        "expected": [],
        "allowed": ["Paris"],
        "ordinary": ["Le jeune cycliste breton", "Son équipe", "le maillot à pois"],
    },
    {
        "language": "fr",
        "text": "La corrélation entre le temps de sommeil et les notes obtenues reste faible (0,21), mais elle "
        "devient significative chez les lycéens de terminale. Ce résultat rejoint les observations rapportées "
        "par Benoît et coll. (2015, p. 203) sur un échantillon canadien.",
        "expected": ["0,21", "Benoît et coll. (2015, p. 203)"],
        "allowed": ["Benoît"],
        "ordinary": ["La corrélation", "Ce résultat rejoint"],
    },
    {
        "language": "fr",
        "text": "Pour la deuxième année consécutive, la fréquentation des musées nationaux progresse : elle "
        "atteint 8,2 millions de visiteurs, en hausse de 11 % sur un an. Les expositions temporaires expliquent "
        "l'essentiel de cette hausse selon le ministère.",
        "expected": ["11 %"],
        "allowed": [],
        "ordinary": ["Pour la deuxième année consécutive", "Les expositions temporaires", "le ministère"],
    },
    {
        "language": "fr",
        "text": "Les valeurs propres calculées par Rivière (2009) restent stables à 0,05 près. Nous les avons "
        "recalculées avec une discrétisation plus fine et obtenu une erreur relative de 0,8 %, ce qui ne change "
        "aucune des conclusions de l'article original.",
        "expected": ["Rivière (2009)", "0,05", "0,8 %"],
        "allowed": ["Rivière"],
        "ordinary": ["Les valeurs propres", "Nous les avons recalculées"],
    },
    {
        "language": "fr",
        "text": "Au printemps, la Société d'horticulture organise une bourse aux plantes dans la cour de l'ancienne "
        "école. Chacun peut y apporter des boutures, des graines ou des conseils, et les enfants sont invités à "
        "semer leur premier potager dans des bacs prêtés pour l'occasion.",
        "expected": [],
        "allowed": ["Société d'horticulture"],
        "ordinary": ["Au printemps", "une bourse aux plantes", "Chacun peut y apporter"],
    },
    {
        "language": "fr",
        "text": f"Le rendement annuel du fonds a été de 4,75{NB}% après frais, pour une volatilité mesurée de "
        "9,4 %. Ces performances restent en deçà de l'indice de référence, que les gérants attribuent à une "
        "exposition trop prudente aux actions européennes.",
        "expected": [f"4,75{NB}%", "9,4 %"],
        "allowed": [],
        "ordinary": ["Le rendement annuel", "Ces performances restent", "les gérants"],
    },
    {
        "language": "fr",
        "text": "Ce phénomène a été décrit pour la première fois par Aubert et coll., 1998, puis confirmé par des "
        "mesures satellitaires. La fonte observée représente environ 270 milliards de tonnes de glace par an, "
        "selon les estimations les plus prudentes.",
        "expected": ["Aubert et coll., 1998"],
        "allowed": ["Aubert"],
        "ordinary": ["Ce phénomène a été décrit", "La fonte observée"],
    },
    # ------------------------------------------------------------------ Polish
    {
        "language": "pl",
        "text": "Według danych GUS stopa bezrobocia w województwie spadła z 6,8 % do 5,1 % w ciągu dwóch lat. "
        "Autorzy raportu zaznaczają jednak, że spadek był nierówny i w małych miejscowościach praca nadal jest "
        "trudno dostępna dla młodych ludzi.",
        "expected": ["6,8 %", "5,1 %"],
        "allowed": ["GUS"],
        "ordinary": ["Według danych", "Autorzy raportu zaznaczają"],
    },
    {
        "language": "pl",
        "text": "Metoda opisana przez Wójcika i in. (2018) opiera się na losowaniu warstwowym. Później "
        f"zastosowano ją w kilku badaniach kohortowych, z których największe objęło 14{NB}300 pacjentów "
        "obserwowanych przez ponad osiem lat.",
        "expected": ["Wójcika i in. (2018)", f"14{NB}300"],
        "allowed": ["Wójcika"],
        "ordinary": ["Metoda opisana", "Później zastosowano"],
    },
    {
        "language": "pl",
        "text": "Na zbiorze walidacyjnym dokładność modelu wynosi 0,934, a czułość 0,881, podczas gdy model "
        "bazowy osiąga odpowiednio 0,872 i 0,815. Różnica maleje jednak wyraźnie w przypadku zdań dłuższych niż "
        "czterdzieści słów.",
        "expected": ["0,934", "0,881", "0,872", "0,815"],
        "allowed": [],
        "ordinary": ["Na zbiorze walidacyjnym", "Różnica maleje"],
    },
    {
        "language": "pl",
        "text": "Umowa przewiduje w art. 9 karę umowną w wysokości 10 % wynagrodzenia za każdy tydzień opóźnienia. "
        "Sąd przypomniał, że zgodnie z § 6 regulaminu kara może zostać naliczona dopiero po bezskutecznym "
        "wezwaniu wykonawcy do zapłaty.",
        "expected": ["10 %", "§ 6"],
        "allowed": ["art. 9"],
        "ordinary": ["Umowa przewiduje", "Sąd przypomniał", "karę umowną"],
    },
    {
        "language": "pl",
        "text": "Jak zauważają Zielińska i Mazur (2020, s. 58), głośne czytanie poprawia rozumienie dłuższych "
        "tekstów przez uczniów szkół podstawowych. Ich badanie krytykowano jednak za małą liczebność grup i "
        "brak grupy kontrolnej.",
        "expected": ["Zielińska i Mazur (2020, s. 58)"],
        "allowed": ["Zielińska", "Mazur"],
        "ordinary": ["Jak zauważają", "Ich badanie krytykowano"],
    },
    {
        "language": "pl",
        "text": f"Liczba mieszkańców aglomeracji przekroczyła 1{NN}780{NN}000 osób, co oznacza wzrost o "
        f"2,4{NN}% od ostatniego spisu powszechnego. Władze miasta planują w związku z tym budowę dwóch nowych "
        "linii tramwajowych i nowego parkingu.",
        "expected": [f"1{NN}780{NN}000", f"2,4{NN}%"],
        "allowed": [],
        "ordinary": ["Liczba mieszkańców aglomeracji", "Władze miasta planują"],
    },
    {
        "language": "pl",
        "text": "Wyniki uzyskane na trzech korpusach zebrano w tabeli poniżej. Miara F waha się od 0,69 do 0,77 w "
        "zależności od dziedziny, a odchylenie standardowe nie przekracza 0,02 dla żadnego ziarna losowego, co "
        "potwierdza stabilność uczenia.",
        "expected": ["0,69 do 0,77", "0,02"],
        "allowed": [],
        "ordinary": ["Wyniki uzyskane", "w zależności od dziedziny"],
    },
    {
        "language": "pl",
        "text": "W tomie zbiorowym Pawlak (red.), 2015, kilka rozdziałów poświęcono historii bibliotek gminnych. "
        "Dowiadujemy się z nich między innymi, że liczba wypożyczeń rosła w kolejnej dekadzie o 8–11 % rocznie, zwłaszcza na wsi.",
        "expected": ["Pawlak (red.), 2015", "8–11 %"],
        "allowed": ["Pawlak"],
        "ordinary": ["W tomie zbiorowym", "Dowiadujemy się z nich"],
    },
    {
        "language": "pl",
        "text": "Średnia temperatura w lipcu wyniosła 21,3 ± 1,4 stopnia, przy czym na południu kraju notowano "
        "znacznie wyższe wartości. Instytut Meteorologii i Gospodarki Wodnej przypomina, że dane są wstępne, "
        "dopóki nie zostaną sprawdzone wszystkie stacje.",
        "expected": ["21,3 ± 1,4"],
        "allowed": ["Instytut Meteorologii i Gospodarki Wodnej"],
        "ordinary": ["Średnia temperatura", "dane są wstępne"],
    },
    {
        "language": "pl",
        "text": "Kilka niedawnych prac (Kaczmarek i wsp., 2021; Sikora, 2022) wykazało, że zmęczenie wzroku "
        "rośnie wraz z czasem spędzanym przed ekranem. Żadna z nich nie zbadała jednak wpływu oświetlenia "
        "pomieszczenia.",
        "expected": ["(Kaczmarek i wsp., 2021; Sikora, 2022)"],
        "allowed": ["Kaczmarek", "Sikora"],
        "ordinary": ["Kilka niedawnych prac", "Żadna z nich"],
    },
    {
        "language": "pl",
        "text": "„Przez lata nie docenialiśmy kosztów utrzymania dróg” – przyznaje Agnieszka Dudek, zastępczyni "
        "burmistrza. Roczny budżet na drogi wynosi tymczasem 3 100 000 zł, czyli prawie jedną czwartą wydatków "
        "inwestycyjnych gminy.",
        "expected": ["3 100 000"],
        "allowed": ["Agnieszka Dudek"],
        "ordinary": ["Przez lata nie docenialiśmy", "Roczny budżet"],
    },
    {
        "language": "pl",
        "text": "Przepis art. 151 Kodeksu pracy, przywołany w § 14 uzasadnienia, określa zasady pracy w "
        "godzinach nadliczbowych. Sąd uznał, że czas przebierania się nie wlicza się do czasu pracy, co dotyczy "
        "około 6,5 % zatrudnionych w branży.",
        "expected": ["§ 14", "6,5 %"],
        "allowed": ["art. 151", "Kodeksu pracy"],
        "ordinary": ["Sąd uznał", "czas przebierania się"],
    },
    {
        "language": "pl",
        "text": "Metody I Przebieg Badania. Każdy uczestnik przeczytał dwadzieścia krótkich tekstów, a następnie "
        "odpowiedział na pytania sprawdzające zrozumienie. Odpowiedzi oceniało niezależnie dwóch sędziów, którzy "
        "nie wiedzieli, z której grupy pochodzą.",
        "expected": [],
        "allowed": [],
        "ordinary": ["Metody I Przebieg Badania", "Każdy uczestnik", "Odpowiedzi oceniało"],
    },
    {
        "language": "pl",
        "text": "Według Jasińskiego (red.), 2012, s. 143, pierwsze młyny papiernicze w dolinie powstały w "
        "czternastym wieku. Miejscowe muzeum przechowuje do dziś kilka mosiężnych form, w których czerpano "
        "arkusze papieru jeden po drugim.",
        "expected": ["Jasińskiego (red.), 2012, s. 143"],
        "allowed": ["Jasińskiego"],
        "ordinary": ["pierwsze młyny papiernicze", "Miejscowe muzeum"],
    },
    {
        "language": "pl",
        "text": "Odsetek błędów systemu spada do 3,9 %, gdy do treningu dodamy nagrania z szumem, wobec 5,7 % bez "
        "nich. Poprawa utrzymuje się także dla gwar regionalnych, które dotąd były największą słabością tego modelu.",
        "expected": ["3,9 %", "5,7 %"],
        "allowed": [],
        "ordinary": ["Odsetek błędów systemu", "Poprawa utrzymuje się"],
    },
    {
        "language": "pl",
        "text": "Zob. też Kubiak i in., 2013, gdzie przedstawiono podobną analizę dla terenów górskich. Oba "
        "badania wskazują, że ruch turystyczny podwoił się w ciągu piętnastu lat, choć liczba miejsc noclegowych "
        "prawie się nie zmieniła.",
        "expected": ["Kubiak i in., 2013"],
        "allowed": ["Kubiak"],
        "ordinary": ["Oba badania wskazują", "ruch turystyczny"],
    },
    {
        "language": "pl",
        "text": f"Tegoroczne zbiory wyniosły 2{TH}870 ton, czyli mniej więcej tyle, ile wynosi średnia z ostatnich "
        "dziesięciu lat. Rolnicy obawiają się jednak wiosennej suszy, która może obniżyć plony w przyszłym sezonie, "
        "jeśli deszcz nadal nie spadnie.",
        "expected": [f"2{TH}870"],
        "allowed": [],
        "ordinary": ["Tegoroczne zbiory", "Rolnicy obawiają się"],
    },
    {
        "language": "pl",
        "text": "Naczelny Sąd Administracyjny oddalił skargę, powołując się na §§ 2–4 uchwały podjętej rok wcześniej. "
        "Zdaniem sądu organ nie popełnił oczywistego błędu w ocenie, odmawiając wydania wnioskowanego zezwolenia.",
        "expected": ["§§ 2–4"],
        "allowed": ["Naczelny Sąd Administracyjny"],
        "ordinary": ["Zdaniem sądu", "oczywistego błędu w ocenie"],
    },
    {
        "language": "pl",
        "text": "W badaniu przeprowadzonym wśród 520 rodzin (Górecka i Wróbel, 2019) udział wydatków na żywność "
        "sięgał 24,3 % dochodu rozporządzalnego. W gospodarstwach samotnych rodziców był on wyraźnie wyższy niż średnio.",
        "expected": ["(Górecka i Wróbel, 2019)", "24,3 %"],
        "allowed": ["Górecka", "Wróbel"],
        "ordinary": ["W badaniu przeprowadzonym", "W gospodarstwach samotnych rodziców"],
    },
    {
        "language": "pl",
        "text": "Młody kolarz z Podhala wygrał górski etap z przewagą czterdziestu sekund. Jego drużyna, dotąd "
        "raczej niewidoczna, liczy teraz, że utrzyma koszulkę w grochy aż do mety w Krakowie, choć ostatni "
        "tydzień zapowiada się bardzo ciężko.",
        "expected": [],
        "allowed": ["Podhala", "Krakowie"],
        "ordinary": ["Młody kolarz", "Jego drużyna", "koszulkę w grochy"],
    },
    {
        "language": "pl",
        "text": "Korelacja między długością snu a ocenami pozostaje słaba (0,19), ale staje się istotna wśród "
        "uczniów klas maturalnych. Wynik ten jest zgodny z obserwacjami, które opisali Adamczyk i wsp. (2016, s. "
        "77) na próbie czeskiej.",
        "expected": ["0,19", "Adamczyk i wsp. (2016, s. 77)"],
        "allowed": ["Adamczyk"],
        "ordinary": ["Korelacja między długością snu", "Wynik ten jest zgodny"],
    },
    {
        "language": "pl",
        "text": "Drugi rok z rzędu rośnie frekwencja w muzeach narodowych: odwiedziło je 6,4 mln osób, o 9 % więcej "
        "niż przed rokiem. Według ministerstwa wzrost zawdzięczamy przede wszystkim wystawom czasowym i nocnym "
        "zwiedzaniom.",
        "expected": ["9 %"],
        "allowed": [],
        "ordinary": ["Drugi rok z rzędu", "Według ministerstwa", "wystawom czasowym"],
    },
    {
        "language": "pl",
        "text": "Wartości własne obliczone przez Lisa (2010) są stabilne z dokładnością do 0,04. Przeliczyliśmy je "
        "na gęstszej siatce i otrzymaliśmy błąd względny 0,6 %, co nie zmienia żadnego z wniosków pierwotnego "
        "artykułu.",
        "expected": ["Lisa (2010)", "0,04", "0,6 %"],
        "allowed": ["Lisa"],
        "ordinary": ["Wartości własne", "Przeliczyliśmy je"],
    },
    {
        "language": "pl",
        "text": "Wiosną Towarzystwo Ogrodnicze organizuje na dziedzińcu starej szkoły giełdę roślin. Każdy może "
        "przynieść sadzonki, nasiona albo dobre rady, a dzieci mogą założyć swój pierwszy ogródek w skrzynkach "
        "wypożyczonych na tę okazję.",
        "expected": [],
        "allowed": ["Towarzystwo Ogrodnicze"],
        "ordinary": ["Wiosną", "giełdę roślin", "Każdy może przynieść"],
    },
    {
        "language": "pl",
        "text": f"Roczna stopa zwrotu funduszu wyniosła 5,25{NB}% po odliczeniu opłat, przy zmienności na poziomie "
        "8,9 %. Wyniki te są słabsze od indeksu odniesienia, co zarządzający tłumaczą zbyt ostrożnym "
        "zaangażowaniem w akcje europejskie.",
        "expected": [f"5,25{NB}%", "8,9 %"],
        "allowed": [],
        "ordinary": ["Roczna stopa zwrotu", "Wyniki te są słabsze", "zarządzający tłumaczą"],
    },
    {
        "language": "pl",
        "text": "Zjawisko to opisali po raz pierwszy Borkowski i wsp., 1997, a później potwierdziły je pomiary "
        "satelitarne. Obserwowane topnienie odpowiada mniej więcej 250 miliardom ton lodu rocznie według "
        "najostrożniejszych szacunków.",
        "expected": ["Borkowski i wsp., 1997"],
        "allowed": ["Borkowski"],
        "ordinary": ["Zjawisko to opisali", "Obserwowane topnienie"],
    },
]
