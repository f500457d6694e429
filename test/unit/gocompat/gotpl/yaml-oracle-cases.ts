/**
 * sigs.k8s.io/yaml v1.4.0 Marshal output (go1.26.8) for JSON documents decoded with UseNumber, i.e.
 * what kwok's YAML template function produces for that data. Regenerate only from Go.
 */
export const YAML_ORACLE_CASES: readonly (readonly [json: string, yaml: string])[] = [
  ["{\"a\":1,\"b\":\"x\",\"c\":[1,2],\"d\":{},\"e\":[],\"f\":null,\"g\":true,\"h\":1.5,\"i\":\"1\",\"j\":\"true\",\"k\":\"\",\"l\":\"yes\",\"m\":\"on\",\"n\":\"null\",\"o\":\"~\"}", "a: 1\nb: x\nc:\n- 1\n- 2\nd: {}\ne: []\nf: null\ng: true\nh: 1.5\ni: \"1\"\nj: \"true\"\nk: \"\"\nl: \"yes\"\nm: \"on\"\n\"n\": \"null\"\no: \"~\"\n"],
  ["{\"1\":4,\"2\":6,\"10\":5,\"items10\":1,\"items9\":2,\"item\":3,\"a_b\":1,\"ab\":2,\"A\":3,\"a-b\":7,\"a.b\":8,\"Zeta\":9}", "\"1\": 4\n\"2\": 6\n\"10\": 5\nA: 3\nZeta: 9\na-b: 7\na.b: 8\na_b: 1\nab: 2\nitem: 3\nitems9: 2\nitems10: 1\n"],
  ["[\"a\",[\"b\",\"c\"],{\"x\":1,\"y\":[1,{\"z\":2}]},[],{}]", "- a\n- - b\n  - c\n- x: 1\n  \"y\":\n  - 1\n  - z: 2\n- []\n- {}\n"],
  ["{\"s1\":\"- a\",\"s2\":\"a: b\",\"s3\":\" lead\",\"s4\":\"trail \",\"s5\":\"a #b\",\"s6\":\"#x\",\"s7\":\"it's\",\"s8\":\"multi\\nline\",\"s9\":\"multi\\nline\\n\",\"s10\":\"multi\\n\\n\",\"s11\":\" multi\\nline\",\"s12\":\"tab\\there\",\"s13\":\"2024-01-01T00:00:00Z\",\"s14\":\"2024-01-01\",\"s15\":\"1.2.3\",\"s16\":\"0x1F\",\"s17\":\"1_000\",\"s18\":\"08\",\"s19\":\"1e3\",\"s20\":\".5\",\"s21\":\"-\",\"s22\":\"?\",\"s23\":\":\",\"s24\":\"a:\",\"s25\":\"é ü\",\"s26\":\"@x\",\"s27\":\"%x\",\"s28\":\"1:20\",\"s29\":\"*\",\"s30\":\"!x\",\"s31\":\"&a\",\"s32\":\"[x]\",\"s33\":\"{x}\",\"s34\":\"x,y\",\"s35\":\"a|b\",\"s36\":\">\",\"s37\":\"trail \\nx\",\"s38\":\"x\\n y\",\"s39\":\"ctrl\\u0001\",\"s40\":\"---\",\"s41\":\"--- x\",\"s42\":\"...\",\"s43\":\"Yes\",\"s44\":\"N\",\"s45\":\"y\",\"s46\":\"+1\",\"s47\":\"-1.5\",\"s48\":\"0b101\",\"s49\":\".inf\",\"s50\":\"<<\"}", "s1: '- a'\ns2: 'a: b'\ns3: ' lead'\ns4: 'trail '\ns5: 'a #b'\ns6: '#x'\ns7: it's\ns8: |-\n  multi\n  line\ns9: |\n  multi\n  line\ns10: |+\n  multi\n\ns11: |2-\n   multi\n  line\ns12: \"tab\\there\"\ns13: \"2024-01-01T00:00:00Z\"\ns14: \"2024-01-01\"\ns15: 1.2.3\ns16: \"0x1F\"\ns17: \"1_000\"\ns18: \"08\"\ns19: \"1e3\"\ns20: \".5\"\ns21: '-'\ns22: '?'\ns23: ':'\ns24: 'a:'\ns25: é ü\ns26: '@x'\ns27: '%x'\ns28: \"1:20\"\ns29: '*'\ns30: '!x'\ns31: '&a'\ns32: '[x]'\ns33: '{x}'\ns34: x,y\ns35: a|b\ns36: '>'\ns37: \"trail \\nx\"\ns38: |-\n  x\n   y\ns39: \"ctrl\\x01\"\ns40: '---'\ns41: '--- x'\ns42: '...'\ns43: \"Yes\"\ns44: \"N\"\ns45: \"y\"\ns46: \"+1\"\ns47: \"-1.5\"\ns48: \"0b101\"\ns49: \".inf\"\ns50: <<\n"],
  ["{\"n1\":1.0,\"n2\":1e+21,\"n3\":1.2345678901234569e+23,\"n4\":0.00001,\"n5\":-0.0,\"n6\":100,\"n7\":1.5e+300}", "n1: 1\nn2: 1e+21\nn3: 1.2345678901234569e+23\nn4: 1e-05\nn5: -0\nn6: 100\nn7: 1.5e+300\n"],
  ["\"scalar\"", "scalar\n"],
  ["42", "42\n"],
  ["null", "null\n"],
  ["true", "true\n"],
  ["\"multi\\nline\"", "|-\n  multi\n  line\n"],
  ["[]", "[]\n"],
  ["{}", "{}\n"],
  ["{\"addresses\":[{\"address\":\"10.0.0.1\",\"type\":\"InternalIP\"},{\"address\":\"node-1\",\"type\":\"Hostname\"}]}", "addresses:\n- address: 10.0.0.1\n  type: InternalIP\n- address: node-1\n  type: Hostname\n"],
  ["{\"cpu\":\"1k\",\"memory\":\"1Ti\",\"pods\":\"1M\"}", "cpu: 1k\nmemory: 1Ti\npods: 1M\n"],
  ["{\"key with space\":1,\"key:colon\":2,\"\":3,\"-dash\":4}", "\"\": 3\n-dash: 4\nkey with space: 1\nkey:colon: 2\n"],
  ["{\"long\":\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx yyyyyyyyyy z\"}", "long: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n  yyyyyyyyyy z\n"],
  ["{\"a\":{\"b\":{\"long\":\"wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww tail and more words here wwwwwwwwwwwwwwwwwwwwwwwwwwwwww end\"}}}", "a:\n  b:\n    long: wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww\n      tail and more words here wwwwwwwwwwwwwwwwwwwwwwwwwwwwww end\n"],
  ["[\"wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww x y\",{\"k\":\"- wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww more\"}]", "- wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww\n  x y\n- k: '- wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww\n    more'\n"],
  ["{\"q\":\"\\\"quoted\\\" wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww x: y wwwwwwwwww\"}", "q: '\"quoted\" wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww\n  x: y wwwwwwwwww'\n"],
  ["{\"d\":\"wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww  two  spaces wwwww\"}", "d: wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww  two  spaces\n  wwwww\n"],
  ["{\"t\":\"true wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww z\"}", "t: true wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww\n  z\n"],
  ["{\"u\":\"üwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww é wwwwwwwwwwwwwwwwwwww\"}", "u: üwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww\n  é wwwwwwwwwwwwwwwwwwww\n"],
  ["{\"m\":\"line1 wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww x\\nline2\"}", "m: |-\n  line1 wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww x\n  line2\n"],
  ["{\"c\":\"tab\\twwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww more wwwwwwwwwwwwwwwwwwww ok\"}", "c: \"tab\\twwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww\n  more wwwwwwwwwwwwwwwwwwww ok\"\n"],
  ["{\"e\":\"wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww \"}", "e: 'wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww '\n"],
  ["{\"nested\":[[\"wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww y\"]]}", "nested:\n- - wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww\n    y\n"],
  ["{\"long key wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww\":1}", "long key wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww: 1\n"],
];
