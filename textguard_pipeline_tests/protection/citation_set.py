"""Labelled citation set: real text, hand-checked gold spans.

Each example is ``(origin, text, gold)`` where ``gold`` lists the exact citation
substrings in order of appearance (one entry per occurrence). Span policy: a
bracket whose whole content is citations is one span, brackets included;
citations inside a longer bracket are spans without the bracket; narrative
``Author (Year)`` includes the year bracket; LaTeX ``\\cite`` commands and pandoc
``[@key]`` are whole spans. Reference-list entries and RFC tags are not in-text
citations.

Origins: ``corpus:<file>`` = /work/shared/corpus (licences in its SOURCES.md:
MIT, CC-BY-4.0, Apache-2.0, BSD, IETF); ``gh:<id>`` = a sentence of public GitHub
text found through the code-search index (id = the index's file id).
"""

CORPUS = [
    (
        "corpus:tex/conv_arithmetic.tex",
        "Although CNNs have been used as early as the nineties\nto solve character recognition tasks \\citep{le1997reading}, their current\nwidespread application is due to much more recent work, when a deep CNN was used\nto beat state-of-the-art in the ImageNet image classification challenge\n\\citep{krizhevsky2012imagenet}.",
        ["\\citep{le1997reading}", "\\citep{krizhevsky2012imagenet}"],
    ),
    (
        "corpus:tex/conv_arithmetic.tex",
        "Finally, so-called transposed convolutional layers\n(also known as fractionally strided convolutional layers) have been employed in\nmore and more work as of late \\citep{zeiler2011adaptive,zeiler2014visualizing,\nlong2015fully,radford2015unsupervised,visin15,im2016generating}, and their\nrelationship with convolutional layers has been explained with various degrees\nof clarity.",
        [
            "\\citep{zeiler2011adaptive,zeiler2014visualizing,\nlong2015fully,radford2015unsupervised,visin15,im2016generating}"
        ],
    ),
    (
        "corpus:tex/conv_arithmetic.tex",
        "In order to remain broadly applicable, the results shown in this guide are\nindependent of implementation details and apply to all commonly used machine\nlearning frameworks, such as Theano\n\\citep{bergstra2010theano,bastien2012theano}, Torch \\citep{collobert2011torch7},\nTensorflow \\citep{abaditensorflow} and Caffe \\citep{jia2014caffe}.",
        [
            "\\citep{bergstra2010theano,bastien2012theano}",
            "\\citep{collobert2011torch7}",
            "\\citep{abaditensorflow}",
            "\\citep{jia2014caffe}",
        ],
    ),
    (
        "corpus:tex/conv_arithmetic.tex",
        "For an in-depth treatment of the subject, see Chapter\n9 of the Deep Learning textbook \\citep{Goodfellow-et-al-2016-Book}.",
        ["\\citep{Goodfellow-et-al-2016-Book}"],
    ),
    (
        "corpus:tex/conv_arithmetic.tex",
        "Other kinds of pooling exist, e.g.,\nmean or average pooling, which all share the same idea of aggregating the input\nlocally by applying a non-linearity to the content of some patches \\citep{%\nboureau-cvpr-10,boureau-icml-10,boureau-iccv-11,ICML2011Saxe_551}.",
        ["\\citep{%\nboureau-cvpr-10,boureau-icml-10,boureau-iccv-11,ICML2011Saxe_551}"],
    ),
    (
        "corpus:tex/conv_arithmetic.tex",
        "For a more in-depth\ndescription and to understand in what contexts they are applied, see\n\\citet{chen2014semantic,yu2015multi}.",
        ["\\citet{chen2014semantic,yu2015multi}"],
    ),
    (
        "corpus:tex/conv_arithmetic.tex",
        "For a\nconcrete example, see \\citet{oord2016wavenet}, in which the proposed WaveNet\nmodel implements an autoregressive generative model for raw audio which uses\ndilated convolutions to condition new audio frames on a large context of past\naudio frames.",
        ["\\citet{oord2016wavenet}"],
    ),
    (
        "corpus:tex/fail_latin_poetic_style.tex",
        "It has been shown elsewhere \\cite{nagy2021metre} that Latin hexameter\nis stylistically dense, and that metrical features (the `rhythm' in our musical\nmetaphor) are, in their own right, privileged indicators of authorial style.",
        ["\\cite{nagy2021metre}"],
    ),
    (
        "corpus:tex/fail_latin_poetic_style.tex",
        "In\nfact it has been suggested that metre has a `semantic halo'\ncross-linguistically, imparting meaning independent of content\n\\cite{sela_semhalo}.",
        ["\\cite{sela_semhalo}"],
    ),
    (
        "corpus:tex/fail_latin_poetic_style.tex",
        "But, although\nsome scholars still deny any deliberate use of rhyme, there is plenty of\n`traditional' scholarship\n\\cite{herescu_poesie_1960}\\cite{deutsch_1978}\\cite{clarke_intentional_1972}\\cite{guggenheimer_rhyme_1972}\n(not an exhaustive list) as well as quantitative stylometry\n\\cite{nagy_rhyme_2022} arguing that rhyme was an element of style well before\nthe fourth century \\textsc{ce} which is commonly taken as its inception.",
        [
            "\\cite{herescu_poesie_1960}",
            "\\cite{deutsch_1978}",
            "\\cite{clarke_intentional_1972}",
            "\\cite{guggenheimer_rhyme_1972}",
            "\\cite{nagy_rhyme_2022}",
        ],
    ),
    (
        "corpus:tex/fail_latin_poetic_style.tex",
        "As a basis for this initial investigation, a moderately sized corpus of Latin\nhexameter was chosen for examination (Table \\ref{tab:corpus}).%\n%\n\\footnote{ The corpus is based on the digital editions from MQDQ\n    \\cite{mqdq_2007}, post-processed using software previously developed by the\n    author \\cite{nagy_mqdq_2019}.}\n%\nOne of the goals for this research was to see whether NNs could identify\nvertical patterns (whether sonic, metrical or simply lexical), and so hexameter\nverse, with its continuous and homogenous metrical scheme, was the easiest place\nto start.",
        ["\\cite{mqdq_2007}", "\\cite{nagy_mqdq_2019}"],
    ),
    (
        "corpus:tex/fail_latin_poetic_style.tex",
        "All NN experiments were run in Python using Tensorflow\n\\cite{tensorflow2015-whitepaper} with Keras \\cite{chollet2015keras}, running on\nLinux with NVIDIA GPUs (using CUDA).",
        ["\\cite{tensorflow2015-whitepaper}", "\\cite{chollet2015keras}"],
    ),
    (
        "corpus:tex/fail_latin_poetic_style.tex",
        "For the  gory details, an interested reader might begin with\n    the classic introduction by Winbolt \\cite{winbolt_latin_1903}}\n%\nand Elision.",
        ["\\cite{winbolt_latin_1903}"],
    ),
    (
        "corpus:tex/fail_latin_poetic_style.tex",
        "Syllables\nwere transformed to a phonetic representation,%\n%\n\\footnote{ The phonetic encoding process is described in full in previous work\n    \\cite{nagy_rhyme_2022}.}\n%\nand then augmented with metrical metadata (Fig.",
        ["\\cite{nagy_rhyme_2022}"],
    ),
    (
        "corpus:tex/fail_latin_poetic_style.tex",
        "The\n        embedding space is projected to 2D using UMAP, and then density\n        estimates are plotted for syllables with certain poetic features to\n        determine whether they cluster.}\n    \\label{fig:emb_dense}\n\\end{figure}\n%\nsyllables were separated according to certain metrical features (all syllables\nfollowed by a strong caesura, all long syllables, etc.) and then those syllables\nwere isolated in a 2D projection using UMAP \\cite{mcinnes_umap_2018} to see if\ncertain kinds of syllables were grouped together in the embedding space.",
        ["\\cite{mcinnes_umap_2018}"],
    ),
    (
        "corpus:tex/fail_latin_poetic_style.tex",
        "To compare, the\nwell-known image classification model VGG16 \\cite{vgg16} has about 138 million\nparameters, and is `small' in comparison to billion-scale monsters like GPT-3 or\nDALL-E.",
        ["\\cite{vgg16}"],
    ),
    (
        "corpus:tex/fail_latin_poetic_style.tex",
        "It has been shown elsewhere that Latin hexameter verse is stylistically dense\n\\cite{nagy2021metre} and is well classified by most supervised machine-learning\nmethods, so there is no need to turn to Deep Learning for an additional\npercentage point or two of accuracy.",
        ["\\cite{nagy2021metre}"],
    ),
    (
        "corpus:tex/fail_latin_poetic_style.tex",
        "The\nsame models trained only on metrical metadata (removing all phonetic/lexical\ndata) already reach an accuracy of about 93\\%, comparing favourably with\nprevious work \\cite{nagy2021metre}.",
        ["\\cite{nagy2021metre}"],
    ),
    (
        "corpus:tex/fail_latin_poetic_style.tex",
        "Experiments were conducted with three visualizers\nimplemented in the recent \\mintinline{python}{tf-keras-vis} package\n\\cite{Kubota_tf-keras-vis_2021}---\\mintinline{python}{VanillaSaliency}\n\\cite{vanilla_saliency}, \\mintinline{python}{GradCam} \\cite{gradcam} and\n\\mintinline{python}{ScoreCam} \\cite{scorecam}.",
        ["\\cite{Kubota_tf-keras-vis_2021}", "\\cite{vanilla_saliency}", "\\cite{gradcam}", "\\cite{scorecam}"],
    ),
    (
        "corpus:tex/fail_latin_poetic_style.tex",
        "For image classification models, \\mintinline{python}{MaxPooling}\nseems to be the most common (c.f. the VGG16 design \\cite{vgg16}) but in this\ndomain \\mintinline{python}{AveragePooling} generally performed better.",
        ["\\cite{vgg16}"],
    ),
    (
        "corpus:md/evaluate_bleu_readme.md",
        "Defaults to `4`.\n- **smooth** (`boolean`): Whether or not to apply Lin et al. 2004 smoothing.",
        ["Lin et al. 2004"],
    ),
    (
        "corpus:md/evaluate_bleu_readme.md",
        "#### Values from Popular Papers\nThe [original BLEU paper](https://aclanthology.org/P02-1040/) (Papineni et al. 2002) compares BLEU scores of five different models on the same 500-sentence corpus.",
        ["(Papineni et al. 2002)"],
    ),
    (
        "corpus:md/evaluate_bleu_readme.md",
        "The [Attention is All you Need paper](https://proceedings.neurips.cc/paper/2017/file/3f5ee243547dee91fbd053c1c4a845aa-Paper.pdf) (Vaswani et al. 2017) got a BLEU score of 0.284 on the WMT 2014 English-to-German translation task, and 0.41 on the WMT 2014 English-to-French translation task.",
        ["(Vaswani et al. 2017)"],
    ),
    (
        "corpus:md/evaluate_coval_readme.md",
        "---\ntitle: \nemoji: 🤗 \ncolorFrom: blue\ncolorTo: red\nsdk: gradio\nsdk_version: 3.19.1\napp_file: app.py\npinned: false\ntags:\n- evaluate\n- metric\ndescription: >-\n  CoVal is a coreference evaluation tool for the CoNLL and ARRAU datasets which\n  implements of the common evaluation metrics including MUC [Vilain et al, 1995],\n  B-cubed [Bagga and Baldwin, 1998], CEAFe [Luo et al., 2005],\n  LEA [Moosavi and Strube, 2016] and the averaged CoNLL score\n  (the average of the F1 values of MUC, B-cubed and CEAFe)\n  [Denis and Baldridge, 2009a; Pradhan et al., 2011].",
        [
            "[Vilain et al, 1995]",
            "[Bagga and Baldwin, 1998]",
            "[Luo et al., 2005]",
            "[Moosavi and Strube, 2016]",
            "[Denis and Baldridge, 2009a; Pradhan et al., 2011]",
        ],
    ),
    (
        "corpus:md/evaluate_mauve_readme.md",
        "The [original MAUVE paper](https://arxiv.org/abs/2102.01454) did not analyze the inductive biases present in different embedding models, but related work has shown different kinds of biases exist in many popular generative language models including GPT-2 (see [Kirk et al., 2021](https://arxiv.org/pdf/2102.04130.pdf), [Abid et al., 2021](https://arxiv.org/abs/2101.05783)).",
        ["[Kirk et al., 2021]", "[Abid et al., 2021]"],
    ),
    (
        "corpus:md/amrex_joss_paper.md",
        "Current AMReX-based application codes span a number of areas; in particular \nthe AMReX-Astro GitHub repository holds a number of astrophysical modeling tools based on AMReX [@Zingale_2018].",
        ["[@Zingale_2018]"],
    ),
    (
        "corpus:md/amrex_joss_paper.md",
        "The origins of AMReX trace back to the BoxLib [@BoxLib] software framework.",
        ["[@BoxLib]"],
    ),
]

NEGATIVE = [  # real text with brackets/numbers and no citation
    (
        "corpus:txt/rfc8446.txt",
        "This is primarily useful for\n      non-connection-oriented transports (see [RFC6347] for an example\n      of this).",
        [],
    ),
    (
        "corpus:txt/rfc8446.txt",
        "-  Do you verify signatures after making them, to protect against\n      RSA-CRT key leaks [FW15]?",
        [],
    ),
    (
        "corpus:txt/rfc8446.txt",
        "-  TLS PskKeyExchangeMode registry: Values in the range 0-253\n      (decimal) are assigned via Specification Required [RFC8126].",
        [],
    ),
    (
        "corpus:txt/rfc8446.txt",
        "-  A zero round-trip time (0-RTT) mode was added, saving a round trip\n      at connection setup for some Application Data, at the cost of\n      certain security properties.",
        [],
    ),
    (
        "corpus:txt/rfc8446.txt",
        'As an exception to this general rule, when the server responds to a\n   ClientHello with a HelloRetryRequest, the value of ClientHello1 is\n   replaced with a special synthetic handshake message of handshake type\n   "message_hash" containing Hash(ClientHello1).',
        [],
    ),
    (
        "corpus:txt/rfc8446.txt",
        'A TLS 1.3 client who wishes to negotiate with servers that do not\n   support TLS 1.3 will send a normal TLS 1.3 ClientHello containing\n   0x0303 (TLS 1.2) in ClientHello.legacy_version but with the correct\n   version(s) in the "supported_versions" extension.',
        [],
    ),
    (
        "corpus:txt/rfc8446.txt",
        "inappropriate_fallback  Sent by a server in response to an invalid\n      connection retry attempt from a client (see [RFC7507]).",
        [],
    ),
    (
        "corpus:txt/rfc8446.txt",
        "However, if the PSK was established through a NewSessionTicket, the\n   client's signature would transitively cover the server's certificate\n   through the PSK binder.  [PSK-FINISHED] describes a concrete attack\n   on constructions that do not bind to the server's certificate (see\n   also [Kraw16]).",
        [],
    ),
    (
        "corpus:txt/rfc8446.txt",
        "-  Do you properly ignore unrecognized cipher suites (Section 4.1.2),\n      hello extensions (Section 4.2), named groups (Section 4.2.7), key\n      shares (Section 4.2.8), supported versions (Section 4.2.1), and\n      signature algorithms (Section 4.2.3) in the ClientHello?",
        [],
    ),
    (
        "corpus:md/evaluate_mauve_readme.md",
        "This metric is a wrapper around the [official implementation](https://github.com/krishnap25/mauve) of MAUVE.",
        [],
    ),
    (
        "corpus:txt/rfc8446.txt",
        "Field measurements [Ben17a] [Ben17b] [Res17a] [Res17b] have found\n   that a significant number of middleboxes misbehave when a TLS\n   client/server pair negotiates TLS 1.3.",
        [],
    ),
    (
        "corpus:tex/conv_arithmetic.tex",
        "Let's consider the convolution of a $3 \\times 3$ kernel on a $4 \\times 4$\ninput with unitary stride and no padding (i.e., $i = 4$, $k = 3$, $s = 1$ and\n$p = 0$).",
        [],
    ),
    ("corpus:txt/rfc8446.txt", "enum { warning(1), fatal(2), (255) } AlertLevel;", []),
    (
        "corpus:txt/rfc8446.txt",
        'These values refer solely to signatures\n      which appear in certificates (see Section 4.4.2.2) and are not\n      defined for use in signed TLS handshake messages, although they\n      MAY appear in "signature_algorithms" and\n      "signature_algorithms_cert" for backward compatibility with\n      TLS 1.2.',
        [],
    ),
    (
        "corpus:txt/rfc8446.txt",
        'Leurent, "Transcript Collision\n              Attacks: Breaking Authentication in TLS, IKE, and SSH",\n              Network and Distributed System Security Symposium (NDSS\n              2016), DOI 10.14722/ndss.2016.23418, February 2016.',
        [],
    ),
    (
        "corpus:txt/rfc8446.txt",
        'A server which negotiates TLS 1.3 MUST respond by sending\n   a "supported_versions" extension containing the selected version\n   value (0x0304).',
        [],
    ),
    (
        "corpus:txt/rfc8446.txt",
        "-  When authenticating via a certificate, the server will send the\n      Certificate (Section 4.4.2) and CertificateVerify (Section 4.4.3)\n      messages.",
        [],
    ),
    (
        "corpus:txt/rfc8446.txt",
        "-  TLS SignatureScheme registry: Values with the first byte in the\n      range 0-253 (decimal) are assigned via Specification Required\n      [RFC8126].",
        [],
    ),
    (
        "corpus:txt/rfc8446.txt",
        'Reschke, Ed., "Hypertext Transfer\n              Protocol (HTTP/1.1): Message Syntax and Routing",\n              RFC 7230, DOI 10.17487/RFC7230, June 2014,\n              <https://www.rfc-editor.org/info/rfc7230>.',
        [],
    ),
    (
        "corpus:txt/rfc8446.txt",
        'unrecognized_name  Sent by servers when no server exists identified\n      by the name provided by the client via the "server_name" extension\n      (see [RFC6066]).',
        [],
    ),
    (
        "corpus:txt/rfc8446.txt",
        '-  The certificate MUST allow the key to be used for signing (i.e.,\n      the digitalSignature bit MUST be set if the Key Usage extension is\n      present) with a signature scheme indicated in the client\'s\n      "signature_algorithms"/"signature_algorithms_cert" extensions (see\n      Section 4.2.3).',
        [],
    ),
    (
        "corpus:txt/rfc8446.txt",
        "The reader should refer to the following references for analysis of\n   the TLS handshake: [DFGS15], [CHSV16], [DFGS16], [KW16], [Kraw16],\n   [FGSW16], [LXZFH16], [FG17], and [BBK17].",
        [],
    ),
    (
        "corpus:txt/rfc8446.txt",
        "Note:  When using an out-of-band provisioned pre-shared secret, a\n      critical consideration is using sufficient entropy during the key\n      generation, as discussed in [RFC4086].",
        [],
    ),
    (
        "corpus:txt/rfc8446.txt",
        "If this extension is not present, servers which are compliant with\n   this specification and which also support TLS 1.2 MUST negotiate\n   TLS 1.2 or prior as specified in [RFC5246], even if\n   ClientHello.legacy_version is 0x0304 or later.",
        [],
    ),
    (
        "corpus:txt/rfc8446.txt",
        "In addition, the analysis of\n   post-handshake authentication from [Kraw16] shows that the client\n   identified by the certificate sent in the post-handshake phase\n   possesses the traffic key.",
        [],
    ),
    (
        "corpus:txt/rfc8446.txt",
        "This document uses several registries that were originally created in\n   [RFC4346].",
        [],
    ),
    ("corpus:txt/rfc8446.txt", "Note: The status_request_v2 extension [RFC6961] is deprecated.", []),
    (
        "corpus:tex/conv_arithmetic.tex",
        "The example\ndescribed so far could be tackled by convolving a $3 \\times 3$ kernel over a\n$2 \\times 2$ input padded with a $2 \\times 2$ border of zeros using unit\nstrides (i.e., $i' = 2$, $k' = k$, $s' = 1$ and $p' = 2$), as shown in\n\\autoref{fig:no_padding_no_strides_transposed}.",
        [],
    ),
    (
        "corpus:md/evaluate_mauve_readme.md",
        "It is computed using the [Kullback–Leibler (KL) divergences](https://en.wikipedia.org/wiki/Kullback%E2%80%93Leibler_divergence) between the two distributions of text in a quantized embedding space of a large language model.",
        [],
    ),
    (
        "corpus:txt/rfc8446.txt",
        "uint8 uint16[2];\n      uint8 uint24[3];\n      uint8 uint32[4];\n      uint8 uint64[8];",
        [],
    ),
    (
        "corpus:txt/rfc8446.txt",
        "-  Do you zero-pad Diffie-Hellman public key values to the group size\n      (see Section 4.2.8.1)?",
        [],
    ),
    (
        "corpus:tex/fail_latin_poetic_style.tex",
        "By contrast,\nvarious CNN models, using pre-trained embeddings, train to a similar accuracy in\nroughly one minute: around 97--98\\% (simple accuracy, 64-line samples).",
        [],
    ),
    (
        "corpus:txt/rfc8446.txt",
        "/* Finite Field Groups (DHE) */\n          ffdhe2048(0x0100), ffdhe3072(0x0101), ffdhe4096(0x0102),\n          ffdhe6144(0x0103), ffdhe8192(0x0104),",
        [],
    ),
    (
        "corpus:tex/conv_arithmetic.tex",
        "It is equivalent to convolving a $3\n        \\times 3$ kernel over a $2 \\times 2$ input (with $1$ zero inserted\n        between inputs) padded with a $1 \\times 1$ border of zeros (with an\n        additional border of size $1$ added to the bottom and right edges) using\n        unit strides (i.e., $i' = 3$, $\\tilde{i}' = 5$, $a = 1$, $k' = k$, $s' =\n        1$ and $p' = 1$).}\n\\end{figure}",
        [],
    ),
    (
        "corpus:txt/rfc8446.txt",
        "EdDSA algorithms  Indicates a signature algorithm using EdDSA as\n      defined in [RFC8032] or its successors.",
        [],
    ),
    (
        "corpus:txt/rfc8446.txt",
        "Servers that issue tickets SHOULD offer at least as many tickets as\n   the number of connections that a client might use; for example, a web\n   browser using HTTP/1.1 [RFC7230] might open six connections to a\n   server.",
        [],
    ),
    (
        "corpus:txt/rfc8446.txt",
        'Specifically, the body of the\n   "status_request" extension from the server MUST be a\n   CertificateStatus structure as defined in [RFC6066], which is\n   interpreted as defined in [RFC6960].',
        [],
    ),
    ("corpus:txt/rfc8446.txt", "Servers MUST NOT use any value greater than\n      604800 seconds (7 days).", []),
    (
        "corpus:txt/rfc8446.txt",
        "-  The certificate type MUST be X.509v3 [RFC5280], unless explicitly\n      negotiated otherwise (e.g., [RFC7250]).",
        [],
    ),
    (
        "corpus:txt/rfc8446.txt",
        "-  Do you correctly handle handshake messages that are fragmented to\n      multiple TLS records (see Section 5.1)?",
        [],
    ),
    (
        "corpus:txt/rfc8446.txt",
        "In order to maximize backward\n   compatibility, a record containing an initial ClientHello SHOULD have\n   version 0x0301 (reflecting TLS 1.0) and a record containing a second\n   ClientHello or a ServerHello MUST have version 0x0303 (reflecting\n   TLS 1.2).",
        [],
    ),
    (
        "corpus:txt/rfc8446.txt",
        "A failure of the handshake or other protocol error triggers the\n   termination of the connection, optionally preceded by an alert\n   message (Section 6).",
        [],
    ),
    (
        "corpus:txt/rfc8446.txt",
        "Note that certificate-based\n      client authentication is not available in PSK (including 0-RTT)\n      flows.",
        [],
    ),
    (
        "corpus:md/alce_readme.md",
        "This repository contains the code and data for paper [Enabling Large Language Models to Generate Text with Citations](https://arxiv.org/abs/2305.14627).",
        [],
    ),
    (
        "corpus:tex/fail_latin_poetic_style.tex",
        "% \\tnotemark[1]\n% \\tnotetext[1]{I would like to thank various members of the Computational\n%     Stylistics Group \\url{https://computationalstylistics.github.io/} for their\n%     ideas and support}",
        [],
    ),
    ("corpus:txt/rfc8446.txt", "Rescorla                     Standards Track                  [Page 102]", []),
]

# (origin, text, gold citation spans as exact substrings, in order of appearance)
GITHUB = [
    (
        "gh:34094917058",
        "Processing of 18S rRNA gene sequence files was conducted following Durkin et al. (2022) using QIIME2 (Bolyen et al., 2019) and the DADA2 (Callahan et al., 2016) workflow.",
        ["Durkin et al. (2022)", "(Bolyen et al., 2019)", "(Callahan et al., 2016)"],
    ),
    (
        "gh:3445178",
        "# Mixture Models for Diverse Machine Translation: Tricks of the Trade (Shen et al., 2019)",
        ["(Shen et al., 2019)"],
    ),
    (
        "gh:15234818693",
        "such as how to leverage git, GitHub, GitHub Classroom in Computer & Data Science courses (Zagalsky et al., 2015, Hicks & Irizarry, 2018, Fiksel et al., 2019).",
        ["(Zagalsky et al., 2015, Hicks & Irizarry, 2018, Fiksel et al., 2019)"],
    ),
    (
        "gh:56901235568",
        "models that embed users and items into a shared space for fast approximate-nearest-\n  neighbor retrieval (Covington et al., 2016; Yi et al., 2019), plus feature-rich\n  models (wide-and-deep, factorization machines, DeepFM).",
        ["(Covington et al., 2016; Yi et al., 2019)"],
    ),
    (
        "gh:67320438998",
        "- Referencia citada en la plantilla de la model card (calculadora de impacto ambiental, Lacoste et al., 2019): https://arxiv.org/abs/1910.09700",
        ["Lacoste et al., 2019"],
    ),
    (
        "gh:54579880418",
        "The mutagenic functional groups NO2 and NH2 are the ground truth explanations,\nas established in the GNNExplainer paper (Ying et al., 2019).",
        ["(Ying et al., 2019)"],
    ),
    (
        "gh:60790534178",
        "tantial manual extraction and may generalize poorly across domains (Perkins et al., 1995; Loukina et al., 2016).\n\nThe learned representations (Devlin et al., 2019) are typically combined with regressors/classifiers such as CNNs or LSTMs for prediction",
        ["(Perkins et al., 1995; Loukina et al., 2016)", "(Devlin et al., 2019)"],
    ),
    (
        "gh:71531113343",
        "'Involves relatively LITTLE statistical analysis; heavy on DOCUMENTATION (Colquitt et al., 2019).'",
        ["(Colquitt et al., 2019)"],
    ),
    (
        "gh:52347229808",
        "The platform had been forcing users into degraded writing, and users returned to standard forms the moment the constraint relaxed (Van Hee et al., 2019).",
        ["(Van Hee et al., 2019)"],
    ),
    (
        "gh:1068108",
        "- **Kvasir data set:** endoscopic images of the upper and lower gastrointestinal tract that can be found [here](https://datasets.simula.no/hyper-kvasir/) and is provided by [Borgli et al. (2020)](https://doi.org/10.1038/s41597-020-00622-y).",
        ["Borgli et al. (2020)"],
    ),
    (
        "gh:59316167148",
        "# Kaplan et al. (2020) test-loss power laws for @fig-model-scaling. Each law is\n# a published closed-form fit L = (X / x_c)^(-alpha) over the studied range",
        ["Kaplan et al. (2020)"],
    ),
    (
        "gh:67276400793",
        "- [Lin (2004). ROUGE: A Package for Automatic Evaluation of Summaries](https://aclanthology.org/W04-1013/) — ROUGE paper.\n- [Maynez et al. (2020). On Faithfulness and Factuality in Abstractive Summarization](https://arxiv.org/abs/2005.00661) — the factuality landscape paper.",
        ["Lin (2004)", "Maynez et al. (2020)"],
    ),
    (
        "gh:51780696288",
        '    Reference:\n    - Whittington et al. (2020): "How to build a cognitive map"\n      (Rationale: CA1 measures the error between predicted context and current input).',
        ["Whittington et al. (2020)"],
    ),
    (
        "gh:31162274583",
        "2. **Reformer**: Kitaev et al. (2020)이 제안한 Reformer는 locality-sensitive hashing을 활용하여 attention 연산의 복잡도를 줄였습니다.\n\n3. **Linformer**: Wang et al. (2020)은 low-rank",
        ["Kitaev et al. (2020)", "Wang et al. (2020)"],
    ),
    (
        "gh:71629310688",
        ' * Source: Frädrich et al. (2020) "Common Bugs in Scratch Programs" —\n *   "Missing Backdrop Switch" (903 projects, failure rate 7/8)',
        ["Frädrich et al. (2020)"],
    ),
    (
        "gh:53824525278",
        "Archer & Horbury (2013) and Raptis et al. (2020) document that Pdyn spikes in the dayside sheath are heterogeneous and can create localized density enhancements and depressions. P1's 24% spike fract",
        ["Archer & Horbury (2013)", "Raptis et al. (2020)"],
    ),
    (
        "gh:56158043838",
        "| 02 | Saxena et al. (2020) | Cross-dataset validation | AUC 0.958 Messidor-1, 0.92 Messidor-2, binary DR, InceptionResNetV2 | EyePACS/Kaggle, Messidor-1, Messidor-2 |",
        ["Saxena et al. (2020)"],
    ),
    (
        "gh:1115953117",
        '  - Example: "We evaluate using insertion AUC (Petsiuk et al., 2018; see Section 4.6.2)"\n  - Or: "Metrics are defined in Section 4.6.2"',
        ["Petsiuk et al., 2018"],
    ),
    (
        "gh:67305248422",
        "the cathode is significantly faster than the kinetics of the oxygen evolution reaction at the anode (Espinosa-López et al., 2018; García-Valverde et al., 2012)\nfor exchange current density:",
        ["(Espinosa-López et al., 2018; García-Valverde et al., 2012)"],
    ),
    (
        "gh:62106717382",
        "and the consequence of conditional RSC inactivation is a global loss of transcription (Brahma and Henikoff, 2019; Ganguli et al., 2014; Kubik et al., 2018; Yen et al., 2012). This has led to the concept of RSC (and SWI/SNF) as nucleosome ‘pushers,’ widening the NDR (Kubik et al., 2019).",
        [
            "(Brahma and Henikoff, 2019; Ganguli et al., 2014; Kubik et al., 2018; Yen et al., 2012)",
            "(Kubik et al., 2019)",
        ],
    ),
    (
        "gh:37868277292",
        "resentados reiteram os estudos que apontam para um efeito negativo substancial do rompimento na qualidade da água da bacia do Rio Doce (Rudorff et al., 2018; Santana et al., 2021; da Silva et al., 2022).",
        ["(Rudorff et al., 2018; Santana et al., 2021; da Silva et al., 2022)"],
    ),
    (
        "gh:71627743357",
        "Hierarchical generation. Plan-then-write pipelines date back to hierarchical story generation (Fan et al., 2018; Yao et al., 2019) and outline-conditioned generation with plot states (Rashkin et al., 2020).",
        ["(Fan et al., 2018; Yao et al., 2019)", "(Rashkin et al., 2020)"],
    ),
    (
        "gh:62533675717",
        "`dmd` applies Higher-Order Dynamic Mode Decomposition\n(HODMD; Le Clainche and Vega, 2017), via the PyDMD implementation (Demo et al., 2018; Ichinaga et\nal., 2024), to a delay-embedded trajectory",
        ["Le Clainche and Vega, 2017", "(Demo et al., 2018; Ichinaga et\nal., 2024)"],
    ),
    (
        "gh:70108152868",
        "- **`tools/check_citations.py`:** for every `\\citep[p.~X]{key}`, take the sentence around it, extract its numbers and key terms, and search page X of the digest.",
        ["\\citep[p.~X]{key}"],
    ),
    (
        "gh:28151233363",
        "\\citet*{key}         % Einstein and Author [1]\n\\citep*{key}         % (Einstein and Author, 1905)",
        ["\\citet*{key}", "\\citep*{key}", "(Einstein and Author, 1905)"],
    ),
    (
        "gh:28151233363",
        "\\cite{key1,key2,key3}\n\\citep[see][p.~10]{key}  % (see Einstein, 1905, p. 10)",
        ["\\cite{key1,key2,key3}", "\\citep[see][p.~10]{key}", "(see Einstein, 1905, p. 10)"],
    ),
    (
        "gh:7128156988",
        "proportional hazards model summary of 312 randomized cases in \\\\code{pbc.trial} data set. ~\\citep[Table 4.4.3c]{fleming:1991}",
        ["\\citep[Table 4.4.3c]{fleming:1991}"],
    ),
    (
        "gh:54266792248",
        "5. When synthesizing multiple sources, use grouped citations: `\\cite{smith2023, jones2022, lee2024}`.",
        ["\\cite{smith2023, jones2022, lee2024}"],
    ),
    (
        "gh:44312945338",
        "The score function for the empirical likelihood, evaluated at\nparameters and is given in many places\n\\citep[for example in][Formula~(2)]{HothornMoestBuehlmann2017}.",
        ["\\citep[for example in][Formula~(2)]{HothornMoestBuehlmann2017}"],
    ),
    (
        "gh:58168036108",
        "this is a known source of central-to-global mismatch \\citep[e.g.,][]{harrison2017,ellison2021}.",
        ["\\citep[e.g.,][]{harrison2017,ellison2021}"],
    ),
    (
        "gh:34574457707",
        "This project demonstrates the application of deep learning to real-world finance, leveraging techniques from research such as LeCun, Bengio, and Hinton (2015).",
        ["LeCun, Bengio, and Hinton (2015)"],
    ),
    (
        "gh:70408355417",
        "Residual connections came from ResNets for image recognition (He et al., 2015); layer normalisation was introduced by Ba, Kiros and Hinton (2016) for recurrent networks. The original Transformer (Vaswani et al., 2017) combined them in the post-norm arrangement",
        ["(He et al., 2015)", "Ba, Kiros and Hinton (2016)", "(Vaswani et al., 2017)"],
    ),
    (
        "gh:69221366116",
        "- Shazeer (2020). GLU Variants Improve Transformer.\n- Hendrycks and Gimpel (2016). Gaussian Error Linear Units (GELUs).\n- Ba, Kiros, and Hinton (2016). Layer Normalization.\n- Zhang and Sennrich (2019). Root Mean Square Layer Normalization.",
        ["Shazeer (2020)", "Hendrycks and Gimpel (2016)", "Ba, Kiros, and Hinton (2016)", "Zhang and Sennrich (2019)"],
    ),
    (
        "gh:56646974310",
        "One of these methods is the incremental version of the EM algorithm as proposed recently by Neal and Hinton (1998), whereby an M-step is performed after a single or block of observations",
        ["Neal and Hinton (1998)"],
    ),
    (
        "gh:70163471401",
        "- **Primary source:** van der Maaten and Hinton (2008),\n  [JMLR 9:2579-2605](https://www.jmlr.org/papers/v9/vandermaaten08a.html).",
        ["van der Maaten and Hinton (2008)"],
    ),
    (
        "gh:52553194351",
        "- ✅ **[Neal and Hinton (1998) A View of the EM Algorithm](https://doi.org/10.1007/978-94-011-5014-9_12)** - Relevance: 85.0  - Tags: EM Algorithm",
        ["Neal and Hinton (1998)"],
    ),
    (
        "gh:53276863336",
        "Popularized for deep learning by Nair and Hinton (2010) in their work on Restricted Boltzmann Machines, ReLU quickly became the standard activation",
        ["Nair and Hinton (2010)"],
    ),
    (
        "gh:66514131151",
        "In this qualitative analysis, we use T-SNE van der Maaten and Hinton (2008) to visualize two example of classification with and without instructions.",
        ["van der Maaten and Hinton (2008)"],
    ),
    (
        "gh:51816101055",
        "- Krizhevsky et al. (2012) — ImageNet Classification with Deep Convolutional Neural Networks (AlexNet)\n- Nowlan and Hinton (1992) — Simplifying Neural Networks by Soft Weight Sharing\n- Bishop (1995) — Training with Noise is Equivalent to Tikhonov Regularization",
        ["Krizhevsky et al. (2012)", "Nowlan and Hinton (1992)", "Bishop (1995)"],
    ),
    (
        "gh:6807941192",
        "increased salinity exposure can alter soil geochemistry, leading to mobilization of previously sequestered contaminants ([LeMonte et al., 2017](#lemonth-et-al-2017), [Zhao et al., 2013](#zhao-et-al-2013)).",
        ["[LeMonte et al., 2017]", "[Zhao et al., 2013]"],
    ),
    (
        "gh:56220684347",
        '[Shazeer et al., 2017] "Outrageously Large Neural Networks: The Sparsely-Gated Mixture-of-Experts Layer," ICLR 2017.',
        ["[Shazeer et al., 2017]"],
    ),
    (
        "gh:20222940692",
        "* Domain Adversarial Neural Network (DANN, [Ganin et al., 2015](https://arxiv.org/abs/1505.07818)): standard DANN without adversarial training.\n* Adversarial Training (AT, [Madry et al., 2017](https://arxiv.org/abs/1706.06083)).",
        ["[Ganin et al., 2015]", "[Madry et al., 2017]"],
    ),
    (
        "gh:46868357",
        "People will often accept information that reflects their own views and beliefs more easily, than information that contradicts what they believe in ([Flynn et al., 2017](https://onlinelibrary.wiley.com/doi/10.1111/pops.12394)).",
        ["[Flynn et al., 2017]"],
    ),
    (
        "gh:62551978562",
        "The paper showed that this design could achieve strong results while being more parallelizable during training. ([Vaswani et al., 2017](https://arxiv.org/abs/1706.03762))",
        ["[Vaswani et al., 2017]"],
    ),
    (
        "gh:31467779777",
        '# param["method_name"] = "ove";          # One-vs-each bound [Titsias, 2016]\n# param["method_name"] = "botev";        # The approach by [Botev et al., 2017]',
        ["[Titsias, 2016]", "[Botev et al., 2017]"],
    ),
    (
        "gh:60815599067",
        "social influence can cause herding ([Toyokawa et al., 2019](https://www.nature.com/articles/s41562-018-0518-x), [Becker et al., 2017](https://pubmed.ncbi.nlm.nih.gov/28607070/)).",
        ["[Toyokawa et al., 2019]", "[Becker et al., 2017]"],
    ),
    (
        "gh:71532162767",
        "Safe Pareto improvements and ex post verifiable commitments supply tools for modifying strategic interactions. [Hadfield-Menell et al., 2017](https://arxiv.org/abs/1611.08219); [Neth, 2025](https://arxiv.org/abs/2502.08864); [Oesterheld and Conitzer, 2022](https://link.springer.com/article/",
        ["[Hadfield-Menell et al., 2017]", "[Neth, 2025]", "[Oesterheld and Conitzer, 2022]"],
    ),
    (
        "gh:53576291297",
        "The theoretical understanding of self-attention (SA), a central component of Transformer architectures [Vaswani et al., 2017], has deepened in recent years, including phenomena such as rank collapse [Noci et al., 2022]",
        ["[Vaswani et al., 2017]", "[Noci et al., 2022]"],
    ),
    (
        "gh:40724016797",
        "[Henderson et al., 2017](https://arxiv.org/abs/1705.00652) provide a method to improve the judgement of sentence similarity.",
        ["[Henderson et al., 2017]"],
    ),
    # real text without an in-text citation (bibliography entries, dates, code)
    (
        "gh:14300123658",
        "6. Comanducci, A., Boly, M., Claassen, J., et al. (2020). Clinical and advanced neurophysiology in the prognostic and diagnostic evaluation of disorders of consciousness. *Clinical Neurophysiology*, 131(11)",
        [],
    ),
    (
        "gh:60731430127",
        "- Chris Richardson. _Microservices Patterns._ Manning, 2018; companion site\n  microservices.io.",
        [],
    ),
    ("gh:53865162502", "  year_born  integer,               -- e.g., 2018; approximate is fine", []),
    ("gh:6906671882", "  Paper by Krizhevsky, Sutskever (OpenAI CSO), and Hinton (Nobel)", []),
]


EXAMPLES = CORPUS + GITHUB + NEGATIVE
