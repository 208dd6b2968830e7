package dev.tablewright.checks.template;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.Handle;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * A function module's deployable jar, read as bytecode: which classes it holds, which of the project's classes a
 * handler reaches (through every type it references, transitively), and which environment variables that code
 * reads: the string constant loaded just before a call to {@code Env.require/get/optional} or
 * {@code System.getenv(String)} (javac inlines {@code static final String} constants, so a named constant
 * counts too).
 */
final class FunctionJar {

    /**
     * How a variable is read, weakest first: FALLBACK has a default in code ({@code Env.get(name, fallback)},
     * {@code Env.optional}, {@code Map.getOrDefault}); READ may come back null ({@code Env.get(name)},
     * {@code System.getenv(name)}, {@code env.get(name)} on an environment map); REQUIRED fails without it
     * ({@code Env.require}).
     */
    enum Use { FALLBACK, READ, REQUIRED }

    /** Names that look like environment variables, for reads through a plain Map ({@code env.get("OPENAI_MODEL")}). */
    private static final java.util.regex.Pattern VARIABLE_NAME = java.util.regex.Pattern.compile("[A-Z][A-Z0-9]*(_[A-Z0-9]+)+");

    private static final String PROJECT_PREFIX = "dev/tablewright/";
    private static final String ENV = "dev/tablewright/lambda/Env";

    private final Path path;
    private final Map<String, byte[]> projectClasses = new HashMap<>();
    private final Set<String> allEntries = new LinkedHashSet<>();

    private FunctionJar(Path path) {
        this.path = path;
    }

    static FunctionJar read(Path jar) throws IOException {
        FunctionJar out = new FunctionJar(jar);
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            for (ZipEntry entry : java.util.Collections.list(zip.entries())) {
                out.allEntries.add(entry.getName());
                if (entry.getName().startsWith(PROJECT_PREFIX) && entry.getName().endsWith(".class")) {
                    try (InputStream in = zip.getInputStream(entry)) {
                        out.projectClasses.put(entry.getName().substring(0, entry.getName().length() - 6), in.readAllBytes());
                    }
                }
            }
        }
        return out;
    }

    Path path() {
        return path;
    }

    boolean hasClass(String binaryName) {
        return allEntries.contains(binaryName.replace('.', '/') + ".class");
    }

    /** The superclasses of a project class, nearest first (project classes only). */
    Set<String> superclasses(String binaryName) {
        Set<String> out = new LinkedHashSet<>();
        String current = binaryName.replace('.', '/');
        while (current != null && projectClasses.containsKey(current)) {
            String parent = new ClassReader(projectClasses.get(current)).getSuperName();
            if (parent != null) {
                out.add(parent.replace('/', '.'));
            }
            current = parent;
        }
        return out;
    }

    /** The environment variables read by code reachable from the handler class, with the strongest use seen. */
    Map<String, Use> variablesReadFrom(String handlerBinaryName) {
        Map<String, Use> out = new TreeMap<>();
        walk(java.util.List.of(handlerBinaryName), out);
        return out;
    }

    /** The project's classes in this jar (internal names, e.g. {@code dev/tablewright/json/Json}). */
    Set<String> projectClasses() {
        return java.util.Collections.unmodifiableSet(projectClasses.keySet());
    }

    /** Every entry of the jar (classes, resources, folders), by path. */
    Set<String> entries() {
        return java.util.Collections.unmodifiableSet(allEntries);
    }

    /** The text of the jar's entries that {@code which} picks, by path (the jar opened once for all of them). */
    Map<String, String> texts(java.util.function.Predicate<String> which) throws IOException {
        Map<String, String> out = new TreeMap<>();
        try (ZipFile zip = new ZipFile(path.toFile())) {
            for (String entry : allEntries) {
                if (!entry.endsWith("/") && which.test(entry)) {
                    try (InputStream in = zip.getInputStream(zip.getEntry(entry))) {
                        out.put(entry, new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
                    }
                }
            }
        }
        return out;
    }

    /** The project classes reachable from the given ones (binary names) through every type they reference, transitively. */
    Set<String> reachableFrom(java.util.Collection<String> rootBinaryNames) {
        return walk(rootBinaryNames, new TreeMap<>());
    }

    private Set<String> walk(java.util.Collection<String> rootBinaryNames, Map<String, Use> variables) {
        Deque<String> work = new ArrayDeque<>();
        Set<String> seen = new LinkedHashSet<>();
        rootBinaryNames.forEach(name -> work.add(name.replace('.', '/')));
        while (!work.isEmpty()) {
            String name = work.poll();
            byte[] bytes = projectClasses.get(name);
            if (bytes == null || !seen.add(name)) {
                continue;
            }
            Scanner scanner = new Scanner(variables);
            new ClassReader(bytes).accept(scanner, ClassReader.SKIP_FRAMES);
            for (String ref : scanner.references) {
                if (ref.startsWith(PROJECT_PREFIX) && !seen.contains(ref)) {
                    work.add(ref);
                }
            }
        }
        return seen;
    }

    /** The use a call makes of its first (String) argument as a variable name, or null when it reads none. */
    private static Use use(String owner, String method, String desc) {
        if (owner.equals(ENV) && desc.startsWith("(Ljava/lang/String;")) {
            return switch (method) {
                case "require" -> Use.REQUIRED;
                case "get" -> desc.startsWith("(Ljava/lang/String;Ljava/lang/String;)") ? Use.FALLBACK : Use.READ;
                case "optional" -> Use.FALLBACK;
                default -> null;
            };
        }
        if (owner.equals("java/lang/System") && method.equals("getenv") && desc.startsWith("(Ljava/lang/String;)")) {
            return Use.READ;
        }
        if (owner.equals("java/util/Map")) {
            return switch (method) {
                case "get" -> Use.READ;
                case "getOrDefault" -> Use.FALLBACK;
                default -> null;
            };
        }
        return null;
    }

    /** Collects every type a class references, and the variable names at Env / System.getenv call sites. */
    private static final class Scanner extends ClassVisitor {
        final Set<String> references = new LinkedHashSet<>();
        private final Map<String, Use> variables;

        Scanner(Map<String, Use> variables) {
            super(Opcodes.ASM9);
            this.variables = variables;
        }

        private void type(Type t) {
            switch (t.getSort()) {
                case Type.OBJECT -> references.add(t.getInternalName());
                case Type.ARRAY -> type(t.getElementType());
                case Type.METHOD -> {
                    type(t.getReturnType());
                    for (Type a : t.getArgumentTypes()) {
                        type(a);
                    }
                }
                default -> { }
            }
        }

        private void internal(String name) {
            if (name != null) {
                type(name.startsWith("[") ? Type.getType(name) : Type.getObjectType(name));
            }
        }

        private void constant(Object value) {
            if (value instanceof Type t) {
                type(t);
            } else if (value instanceof Handle h) {
                internal(h.getOwner());
                type(Type.getMethodType(h.getDesc().startsWith("(") ? h.getDesc() : "()" + h.getDesc()));
            }
        }

        @Override
        public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
            internal(superName);
            if (interfaces != null) {
                for (String i : interfaces) {
                    internal(i);
                }
            }
        }

        @Override
        public void visitInnerClass(String name, String outerName, String innerName, int access) {
            internal(name);
        }

        @Override
        public void visitNestHost(String nestHost) {
            internal(nestHost);
        }

        @Override
        public FieldVisitor visitField(int access, String name, String descriptor, String signature, Object value) {
            type(Type.getType(descriptor));
            return null;
        }

        @Override
        public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
            type(Type.getMethodType(descriptor));
            return new MethodVisitor(Opcodes.ASM9) {
                // String constants loaded since the last call, and whether the instruction just before was one.
                private final java.util.List<String> recent = new java.util.ArrayList<>();
                private boolean previousWasString;

                @Override
                public void visitLdcInsn(Object value) {
                    constant(value);
                    if (value instanceof String s) {
                        recent.add(s);
                        previousWasString = true;
                    } else {
                        previousWasString = false;
                    }
                }

                @Override
                public void visitMethodInsn(int opcode, String owner, String method, String desc, boolean itf) {
                    internal(owner);
                    type(Type.getMethodType(desc));
                    Use use = use(owner, method, desc);
                    if (use == null && desc.startsWith("(Ljava/util/Map;Ljava/lang/String;")) {
                        // A settings helper reading one variable from an environment map with its own default,
                        // e.g. intOf(env, "TURN_MAX_STEPS", 8).
                        for (int i = recent.size() - 1; i >= 0; i--) {
                            if (VARIABLE_NAME.matcher(recent.get(i)).matches()) {
                                variables.merge(recent.get(i), Use.FALLBACK, (a, b) -> a.compareTo(b) >= 0 ? a : b);
                                break;
                            }
                        }
                    }
                    if (use != null && !recent.isEmpty()) {
                        boolean withFallback = desc.startsWith("(Ljava/lang/String;Ljava/lang/String;)")
                                || desc.startsWith("(Ljava/lang/Object;Ljava/lang/Object;)");
                        String variable = null;
                        if (withFallback) {
                            // get(name, fallback): a constant fallback is the last string, the name the one before it.
                            variable = previousWasString ? (recent.size() >= 2 ? recent.get(recent.size() - 2) : null)
                                    : recent.getLast();
                        } else if (previousWasString) {
                            variable = recent.getLast();
                        }
                        boolean viaMap = owner.equals("java/util/Map");
                        if (variable != null && (!viaMap || VARIABLE_NAME.matcher(variable).matches())) {
                            variables.merge(variable, use, (a, b) -> a.compareTo(b) >= 0 ? a : b);
                        }
                    }
                    recent.clear();
                    previousWasString = false;
                }

                @Override
                public void visitFieldInsn(int opcode, String owner, String field, String desc) {
                    internal(owner);
                    type(Type.getType(desc));
                    previousWasString = false;
                }

                @Override
                public void visitTypeInsn(int opcode, String type) {
                    internal(type);
                    previousWasString = false;
                }

                @Override
                public void visitInvokeDynamicInsn(String name, String desc, Handle bsm, Object... args) {
                    type(Type.getMethodType(desc));
                    constant(bsm);
                    for (Object a : args) {
                        constant(a);
                    }
                    recent.clear();
                    previousWasString = false;
                }

                @Override
                public void visitMultiANewArrayInsn(String desc, int dims) {
                    type(Type.getType(desc));
                    previousWasString = false;
                }

                @Override
                public void visitInsn(int opcode) {
                    previousWasString = false;
                }

                @Override
                public void visitVarInsn(int opcode, int var) {
                    previousWasString = false;
                }

                @Override
                public void visitIntInsn(int opcode, int operand) {
                    previousWasString = false;
                }

                @Override
                public void visitJumpInsn(int opcode, org.objectweb.asm.Label label) {
                    recent.clear();
                    previousWasString = false;
                }
            };
        }
    }
}
